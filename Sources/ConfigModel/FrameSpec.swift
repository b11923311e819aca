import GestureCore

/// A coordinate or size of a frame as the config writes it: px, or a percentage of the
/// parent's extent. Public for runtime frames (`set` on the control socket), which take the
/// same units as `[view.NAME.frame]`.
public enum FrameLength: Equatable, Sendable, CustomStringConvertible {
    case pixels(Double)
    case percent(Double)

    /// `"40px"` or `"25%"`; nil for anything else.
    public init?(text: String) {
        guard let length = Units.frameLength(text) else { return nil }
        self = length
    }

    public func resolve(parentExtent: Double) -> Double {
        switch self {
        case .pixels(let px): px
        case .percent(let percent): parentExtent * percent / 100
        }
    }

    public var description: String {
        switch self {
        case .pixels(let px): "\(Units.format(px))px"
        case .percent(let percent): "\(Units.format(percent))%"
        }
    }

    /// What a frame length may be, for error messages.
    public static let expected = Units.frameExpected
}

/// A view's frame as written: each component relative to the parent's frame (its origin
/// for `x` and `y`, its extent for percentages).
public struct FrameSpec: Equatable, Sendable, CustomStringConvertible {
    public var x: FrameLength
    public var y: FrameLength
    public var width: FrameLength
    public var height: FrameLength

    public init(
        x: FrameLength = .pixels(0), y: FrameLength = .pixels(0), width: FrameLength = .percent(100),
        height: FrameLength = .percent(100)
    ) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The absolute frame in screen px inside `parent`.
    public func resolve(in parent: Rect) -> Rect {
        Rect(
            x: parent.x + x.resolve(parentExtent: parent.width),
            y: parent.y + y.resolve(parentExtent: parent.height),
            width: width.resolve(parentExtent: parent.width),
            height: height.resolve(parentExtent: parent.height))
    }

    public var description: String { "{x: \(x), y: \(y), width: \(width), height: \(height)}" }
}

/// Durations as the config writes them (`"60s"`, `"300ms"`), for runtime arguments (the
/// `for` of a mode switched over the control socket).
public enum ConfigDuration {
    public static func parse(_ text: String) -> Microseconds? { Units.duration(text) }
    public static let expected = Units.durationExpected
}
