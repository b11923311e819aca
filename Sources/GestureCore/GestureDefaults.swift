/// Defaults that are no gesture's parameter, and the parameters of a type as `init()` gives
/// them (UIKit's documented values, and ours where UIKit is silent: docs/SEMANTICS.md,
/// "Defaults where UIKit is silent"). The config overrides single fields.
public enum GestureDefaults {
    /// A UIKit point in millimetres (1/163 inch).
    public static let pointInMillimeters = 25.4 / 163

    /// Swipe: movement (mm) tolerated before the off-axis and reversal checks apply, so sensor
    /// jitter at touch-down does not fail a swipe.
    public static let swipeJitter = 2.0

    /// Velocities (pan, edge pan, pinch, rotation) average the change over this much of the
    /// recent past, µs, and a release after a pause this long reports zero.
    public static let velocityWindow: Microseconds = 100_000

    /// The defaults of one gesture type.
    public static func parameters(for type: GestureType) -> GestureParameters {
        switch type {
        case .tap: .tap(TapParameters())
        case .longPress: .longPress(LongPressParameters())
        case .pan: .pan(PanParameters())
        case .edgePan: .edgePan(EdgePanParameters())
        case .swipe: .swipe(SwipeParameters())
        case .pinch: .pinch(PinchParameters())
        case .rotation: .rotation(RotationParameters())
        }
    }
}
