/// The one defaults table: UIKit's documented values, and ours where UIKit is silent
/// (docs/SEMANTICS.md, "Defaults where UIKit is silent"). The config overrides single fields.
public enum GestureDefaults {
    /// A UIKit point in millimetres (1/163 inch).
    public static let pointInMillimeters = 25.4 / 163

    /// Swipe: movement (mm) tolerated before the off-axis and reversal checks apply, so sensor
    /// jitter at touch-down does not fail a swipe.
    public static let swipeJitter = 2.0

    /// Velocities (pan, edge pan, pinch, rotation) average the change over this much of the
    /// recent past, µs, and a release after a pause this long reports zero.
    public static let velocityWindow: Microseconds = 100_000

    static let base = GestureParameters(
        taps: 1, touches: 1,
        tapMaxMovement: .millimeters(3), tapInterval: 350_000, tapDistance: .millimeters(10), minPress: 0,
        minimumPressDuration: 500_000, allowableMovement: .points(10),
        minimumTouches: 1, maximumTouches: Int.max, panThreshold: .points(10),
        directions: .right, swipeDistance: .millimeters(10), swipeMinimumSpeed: 50,
        swipeDeadline: 500_000, swipeMaxAngle: 30 * .pi / 180,
        pinchThreshold: .points(10), rotationThreshold: 0.1,
        edges: [], edgeMargin: .millimeters(5))

    /// The defaults of one gesture type.
    public static func parameters(for type: GestureType) -> GestureParameters {
        var p = base
        if type == .longPress { p.taps = 0 } // numberOfTapsRequired is 0 for a long press
        return p
    }
}
