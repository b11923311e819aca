/// The tunables of one gesture, one struct per type: a recognizer is handed its own struct
/// and can read nothing else, and the config's table of keys for the type fills exactly
/// that struct (`GestureConfig/ParameterKey.swift`). Each struct's `init()` gives UIKit's
/// values and ours where UIKit is silent (docs/SEMANTICS.md, "Defaults where UIKit is silent").
public enum GestureParameters: Equatable, Sendable {
    case tap(TapParameters)
    case longPress(LongPressParameters)
    case pan(PanParameters)
    case edgePan(EdgePanParameters)
    case swipe(SwipeParameters)
    case pinch(PinchParameters)
    case rotation(RotationParameters)

    /// The gesture type these parameters belong to.
    /// The tap parameters of a tap gesture; nil for other types.
    public var tap: TapParameters? { if case .tap(let p) = self { p } else { nil } }

    public var type: GestureType {
        switch self {
        case .tap: .tap
        case .longPress: .longPress
        case .pan: .pan
        case .edgePan: .edgePan
        case .swipe: .swipe
        case .pinch: .pinch
        case .rotation: .rotation
        }
    }
}

/// `UITapGestureRecognizer`.
public struct TapParameters: Equatable, Sendable {
    /// `numberOfTapsRequired` (1).
    public var taps = 1
    /// `numberOfTouchesRequired` (1).
    public var touches = 1
    /// The most a contact may move (3 mm, exclusive).
    public var maxMovement: Length = .millimeters(3)
    /// The next tap must go down within this time of the previous lift (350 ms).
    public var tapInterval: Microseconds = 350_000
    /// ... and within this distance of it (10 mm).
    public var tapDistance: Length = .millimeters(10)
    /// The least time a tap must be held (0; noisy panels want about 60 ms).
    public var minPress: Microseconds = 0

    public init() {}
}

/// `UILongPressGestureRecognizer`.
public struct LongPressParameters: Equatable, Sendable {
    /// `numberOfTapsRequired` (0): quick taps before the press.
    public var taps = 0
    /// `numberOfTouchesRequired` (1).
    public var touches = 1
    /// With `taps`: the next tap (or the press) must go down within this time of the
    /// previous lift (350 ms, as for a tap).
    public var tapInterval: Microseconds = 350_000
    /// `minimumPressDuration` (0.5 s, inclusive).
    public var minimumPressDuration: Microseconds = 500_000
    /// `allowableMovement` (10 pt).
    public var allowableMovement: Length = .points(10)

    public init() {}
}

/// `UIPanGestureRecognizer`.
public struct PanParameters: Equatable, Sendable {
    /// `minimumNumberOfTouches` (1).
    public var minimumTouches = 1
    /// `maximumNumberOfTouches` (unlimited).
    public var maximumTouches = Int.max
    /// Centroid travel before the pan begins (10 pt).
    public var threshold: Length = .points(10)

    public init() {}
}

/// `UIScreenEdgePanGestureRecognizer`: a pan whose first contact goes down at an edge.
public struct EdgePanParameters: Equatable, Sendable {
    public var pan = PanParameters()
    /// The edges it starts from (required, no default).
    public var edges: Edges = []
    /// The first contact must go down this close to the edge (5 mm).
    public var edgeMargin: Length = .millimeters(5)

    public init() {}
}

/// `UISwipeGestureRecognizer`.
public struct SwipeParameters: Equatable, Sendable {
    /// `numberOfTouchesRequired` (1).
    public var touches = 1
    /// `direction` (right).
    public var directions: Directions = .right
    /// Travel along a direction needed to recognize (10 mm).
    public var minDistance: Length = .millimeters(10)
    /// Average speed since the first touch-down, mm/s (50).
    public var minSpeed = 50.0
    /// Fails this long after the first touch-down (0.5 s).
    public var maxDuration: Microseconds = 500_000
    /// Largest off-axis angle, radians (30 deg).
    public var maxAngle = 30 * Double.pi / 180

    public init() {}
}

/// `UIPinchGestureRecognizer`.
public struct PinchParameters: Equatable, Sendable {
    /// Change of span before it begins (10 pt).
    public var threshold: Length = .points(10)

    public init() {}
}

/// `UIRotationGestureRecognizer`.
public struct RotationParameters: Equatable, Sendable {
    /// Angle before it begins, radians (0.1).
    public var threshold = 0.1

    public init() {}
}
