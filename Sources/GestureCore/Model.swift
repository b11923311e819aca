// The engine's validated input: screen, views, gestures and their relations. GestureConfig
// builds it from TOML; tests build it directly. Everything is resolved to indices here, so
// the engine never looks a name up on the hot path.

/// A rectangle in screen pixels, y pointing down.
public struct Rect: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Half-open: a point on the right or bottom edge belongs to the neighbour.
    @inlinable public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && py >= y && px < x + width && py < y + height
    }
}

/// The logical screen the views live on, in px.
public struct ScreenSize: Equatable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A distance as the user wrote it. The engine converts it per device (see docs/SEMANTICS.md, "Units":
/// physical when the resolution is plausible, else `size_mm`, else 1 pt = 1 px).
public enum Length: Equatable, Sendable, CustomStringConvertible {
    case millimeters(Double)
    /// UIKit points: 1/163 inch (0.156 mm).
    case points(Double)
    case pixels(Double)

    public var description: String {
        switch self {
        case .millimeters(let v): "\(v)mm"
        case .points(let v): "\(v)pt"
        case .pixels(let v): "\(v)px"
        }
    }
}

/// Durations are Int64 microseconds throughout the core.
public typealias Microseconds = Int64

/// The gesture types of the config (`type = "..."`).
public enum GestureType: String, Sendable, CaseIterable, CustomStringConvertible {
    case tap
    case longPress = "long-press"
    case pan
    case swipe
    case pinch
    case rotation
    case edgePan = "edge-pan"

    /// Continuous gestures report began/changed/ended; discrete ones a single `recognized`.
    public var isContinuous: Bool {
        switch self {
        case .tap, .swipe: false
        case .longPress, .pan, .pinch, .rotation, .edgePan: true
        }
    }

    public var description: String { rawValue }
}

/// Swipe directions (`UISwipeGestureRecognizer.Direction`), in screen space.
public struct Directions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let right = Directions(rawValue: 1 << 0)
    public static let left = Directions(rawValue: 1 << 1)
    public static let up = Directions(rawValue: 1 << 2)
    public static let down = Directions(rawValue: 1 << 3)
    // Not UIKit's: the diagonals lisgd binds (UR, UL, DR, DL), judged by the same rule.
    public static let upRight = Directions(rawValue: 1 << 4)
    public static let upLeft = Directions(rawValue: 1 << 5)
    public static let downRight = Directions(rawValue: 1 << 6)
    public static let downLeft = Directions(rawValue: 1 << 7)

    /// Every single direction with its name in the config, the event JSON and the trace,
    /// and its unit vector on the screen (y down): UIKit's four, then the diagonals.
    public static let all: [(name: String, direction: Directions, x: Double, y: Double)] = [
        ("right", .right, 1, 0), ("left", .left, -1, 0), ("up", .up, 0, -1), ("down", .down, 0, 1),
        ("up-right", .upRight, 0.5.squareRoot(), -(0.5.squareRoot())),
        ("up-left", .upLeft, -(0.5.squareRoot()), -(0.5.squareRoot())),
        ("down-right", .downRight, 0.5.squareRoot(), 0.5.squareRoot()),
        ("down-left", .downLeft, -(0.5.squareRoot()), 0.5.squareRoot()),
    ]

    /// The name of a single direction ("up-left"); nil for none or several.
    public var name: String? {
        for i in 0..<Self.all.count where Self.all[i].direction == self { return Self.all[i].name }
        return nil
    }
}

/// Screen edges (`UIRectEdge`).
public struct Edges: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let top = Edges(rawValue: 1 << 0)
    public static let left = Edges(rawValue: 1 << 1)
    public static let bottom = Edges(rawValue: 1 << 2)
    public static let right = Edges(rawValue: 1 << 3)
}

/// A named region of the screen. Index 0 of `GestureModel.views` is the root (the whole screen).
public struct ViewSpec: Equatable, Sendable {
    public var name: String
    /// Index of the parent view; nil only for the root.
    public var parent: Int?
    /// Absolute frame in screen px (the config resolves `%` and parent offsets).
    public var frame: Rect
    public var enabled: Bool
    public var hidden: Bool
    /// False: touches that begin in this view (or a view inside it) never reach the
    /// application (`TouchDelivery`): a gesture-only strip.
    public var passthrough: Bool

    public init(
        name: String, parent: Int?, frame: Rect, enabled: Bool = true, hidden: Bool = false,
        passthrough: Bool = true
    ) {
        self.name = name
        self.parent = parent
        self.frame = frame
        self.enabled = enabled
        self.hidden = hidden
        self.passthrough = passthrough
    }
}

/// `gestureRecognizer(_:shouldReceive:)` as a declarative predicate over one contact, asked
/// when the contact begins. Every field that is set must hold; an empty predicate accepts all.
public struct ShouldReceiveTouch: Equatable, Sendable {
    /// Tool types accepted (empty: all).
    public var toolTypes: Set<ToolType>
    /// Hit views accepted, by index (empty: all).
    public var hitViews: [Int]
    /// The contact must begin inside this screen rectangle.
    public var region: Rect?
    /// Device name globs (`*`, `?`) accepted (empty: all).
    public var devices: [String]

    public init(toolTypes: Set<ToolType> = [], hitViews: [Int] = [], region: Rect? = nil, devices: [String] = []) {
        self.toolTypes = toolTypes
        self.hitViews = hitViews
        self.region = region
        self.devices = devices
    }
}

/// `gestureRecognizerShouldBegin(_:)` as a declarative predicate, asked when the recognizer
/// tries to leave `possible`; a no sends it to `failed`.
public struct ShouldBegin: Equatable, Sendable {
    /// Contacts the recognizer holds at that moment.
    public var touches: ClosedRange<Int>?
    /// The centroid must be inside this screen rectangle.
    public var region: Rect?
    /// Device name globs accepted (empty: all).
    public var devices: [String]

    public init(touches: ClosedRange<Int>? = nil, region: Rect? = nil, devices: [String] = []) {
        self.touches = touches
        self.region = region
        self.devices = devices
    }
}

/// One gesture recognizer attached to a view.
public struct GestureSpec: Equatable, Sendable {
    public var name: String
    /// Index into `GestureModel.views`.
    public var view: Int
    /// The gesture's type and its tunables.
    public var parameters: GestureParameters
    public var enabled: Bool
    /// `shouldRecognizeSimultaneouslyWith`: a yes from either side allows the pair.
    public var simultaneousWith: [Int]
    /// `require(toFail:)` / `shouldRequireFailureOf`: this gesture waits for these to fail.
    public var requireToFail: [Int]
    /// `shouldBeRequiredToFailBy`: these gestures wait for this one to fail.
    public var requiredToFailBy: [Int]
    /// `canPrevent(_:)` answered no for these gestures.
    public var cannotPrevent: [Int]
    /// `canBePrevented(by:)` answered no for these gestures.
    public var cannotBePreventedBy: [Int]
    public var shouldBegin: ShouldBegin
    public var shouldReceiveTouch: ShouldReceiveTouch
    /// What the application sees of the touches this gesture receives (common to all types).
    public var delivery: DeliveryOptions

    public init(
        name: String, view: Int, parameters: GestureParameters,
        enabled: Bool = true, simultaneousWith: [Int] = [], requireToFail: [Int] = [],
        requiredToFailBy: [Int] = [], cannotPrevent: [Int] = [], cannotBePreventedBy: [Int] = [],
        shouldBegin: ShouldBegin = ShouldBegin(), shouldReceiveTouch: ShouldReceiveTouch = ShouldReceiveTouch(),
        delivery: DeliveryOptions = DeliveryOptions()
    ) {
        self.name = name
        self.view = view
        self.parameters = parameters
        self.enabled = enabled
        self.simultaneousWith = simultaneousWith
        self.requireToFail = requireToFail
        self.requiredToFailBy = requiredToFailBy
        self.cannotPrevent = cannotPrevent
        self.cannotBePreventedBy = cannotBePreventedBy
        self.shouldBegin = shouldBegin
        self.shouldReceiveTouch = shouldReceiveTouch
        self.delivery = delivery
    }

    /// The type its parameters belong to.
    public var type: GestureType { parameters.type }
}
