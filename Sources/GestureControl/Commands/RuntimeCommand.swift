import ConfigModel
import GestureCore

/// A gesture or a view, by its name in the config.
public enum RuntimeTarget: Hashable, Sendable, CustomStringConvertible {
    case gesture(String)
    case view(String)

    public var name: String {
        switch self {
        case .gesture(let name), .view(let name): name
        }
    }

    /// `gesture` or `view`: the member naming it in a request and in the event stream.
    public var kind: String {
        switch self {
        case .gesture: "gesture"
        case .view: "view"
        }
    }

    public var description: String { "\(kind) '\(name)'" }
}

/// `set`: a gesture's `enabled`; a view's `enabled` and `frame` (docs/PROTOCOL.md).
public struct SetRequest: Equatable, Sendable {
    public var target: RuntimeTarget
    public var enabled: Bool?
    /// Views only: relative to the parent view, in the config's frame units; what it leaves
    /// out stays as the view is now.
    public var frame: FramePatch?
    /// Outlives the connection that made it (until `reset` or a restart).
    public var keep: Bool

    public init(target: RuntimeTarget, enabled: Bool? = nil, frame: FramePatch? = nil, keep: Bool = false) {
        self.target = target
        self.enabled = enabled
        self.frame = frame
        self.keep = keep
    }
}

/// A frame as `set` gives it: the members it names, relative to the parent as in the config.
public struct FramePatch: Equatable, Sendable {
    public var x: FrameLength?
    public var y: FrameLength?
    public var width: FrameLength?
    public var height: FrameLength?

    public init(x: FrameLength? = nil, y: FrameLength? = nil, width: FrameLength? = nil, height: FrameLength? = nil) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole frame: the members it leaves out from `current` (absolute) in `parent`, as px.
    public func completed(current: Rect, parent: Rect) -> FrameSpec {
        FrameSpec(
            x: x ?? .pixels(current.x - parent.x), y: y ?? .pixels(current.y - parent.y),
            width: width ?? .pixels(current.width), height: height ?? .pixels(current.height))
    }
}

/// `mode`: a mode of the config in force (nil: none), for a while or until switched.
public struct ModeRequest: Equatable, Sendable {
    public var mode: String?
    /// It ends by itself this long after it began.
    public var duration: Microseconds?
    public var keep: Bool

    public init(mode: String?, duration: Microseconds? = nil, keep: Bool = false) {
        self.mode = mode
        self.duration = duration
        self.keep = keep
    }
}

/// The control commands that change the gesture layer at runtime (the rows of
/// `ControlCommand.runtime`), read from their JSON request: the socket's, or a line of a
/// `gesturectl replay --script` file. The pipeline takes them typed; `RuntimeState` resolves
/// the names they use.
public enum RuntimeCommand: Equatable, Sendable {
    case set(SetRequest)
    case mode(ModeRequest)
    /// Drops the caller's changes (`all`: everyone's).
    case reset(all: Bool)

    /// Reads `{"cmd": "set", ...}` and its siblings, `command` being one of
    /// `ControlCommand.runtime`. Members other than the command's are refused (a misspelt
    /// `enable` would otherwise be a no-op), except those in `ignoring` (a script line's `t`).
    init(_ command: ControlCommand, request: JSONValue, ignoring: Set<String> = []) throws(ControlError) {
        let name = command.rawValue
        let allowed: [String] =
            switch command {
            case .set: ["cmd", "gesture", "view", "enabled", "frame", "keep"]
            case .mode: ["cmd", "mode", "for", "keep"]
            default: ["cmd", "all"]
            }
        if case .object(let members) = request {
            for (key, _) in members where !allowed.contains(key) && !ignoring.contains(key) {
                throw ControlError.badRequest("\(name): unknown member \"\(key)\"", among: allowed.filter { $0 != "cmd" })
            }
        }
        switch command {
        case .set: self = .set(try Self.parseSet(request))
        case .mode: self = .mode(try Self.parseMode(request))
        default: self = .reset(all: try Self.bool(request, "all", in: name) ?? false)
        }
    }
    private static func parseSet(_ request: JSONValue) throws(ControlError) -> SetRequest {
        let target: RuntimeTarget
        switch (request["gesture"], request["view"]) {
        case (let gesture?, nil):
            guard let name = gesture.stringValue else { throw .badRequest("set: \"gesture\" must be a name") }
            target = .gesture(name)
        case (nil, let view?):
            guard let name = view.stringValue else { throw .badRequest("set: \"view\" must be a name") }
            target = .view(name)
        default:
            throw .badRequest(#"set: name exactly one of "gesture" or "view""#)
        }
        let enabled = try bool(request, "enabled", in: "set")
        var frame: FramePatch?
        if let value = request["frame"] {
            guard case .view = target else { throw .badRequest("set: only a view has a frame") }
            frame = try parseFrame(value)
        }
        guard enabled != nil || frame != nil else { throw .badRequest(#"set: nothing to set: give "enabled" or "frame""#) }
        return SetRequest(target: target, enabled: enabled, frame: frame, keep: try bool(request, "keep", in: "set") ?? false)
    }

    /// `{"x": 0, "y": "10%", "width": "50%", "height": 600}`: px as a number or `"40px"`, or a
    /// percentage of the parent; a missing member stays as the view is (`{"x": 500}` moves it).
    private static func parseFrame(_ value: JSONValue) throws(ControlError) -> FramePatch {
        guard case .object(let members) = value else {
            throw .badRequest(#"set: "frame" must be an object like {"x": 0, "y": 0, "width": "50%", "height": "100%"}"#)
        }
        let keys = ["x", "y", "width", "height"]
        for (key, _) in members where !keys.contains(key) {
            throw .badRequest("set: unknown frame member \"\(key)\"", among: keys)
        }
        var spec = FramePatch()
        for (key, member) in members {
            let length: FrameLength
            if let number = member.doubleValue, number.isFinite {
                length = .pixels(number)
            } else if let text = member.stringValue, let parsed = FrameLength(text: text) {
                length = parsed
            } else {
                throw .badRequest("set: frame \"\(key)\" is \(member.text): expected \(FrameLength.expected)")
            }
            switch key {
            case "x": spec.x = length
            case "y": spec.y = length
            case "width": spec.width = length
            default: spec.height = length
            }
        }
        return spec
    }

    private static func parseMode(_ request: JSONValue) throws(ControlError) -> ModeRequest {
        let mode: String?
        switch request["mode"] {
        case .null?: mode = nil
        case .string(let name)?: mode = name == ModeSpec.none ? nil : name
        default: throw .badRequest(#"mode: "mode" must be a mode's name, or "none""#)
        }
        var duration: Microseconds?
        switch request["for"] {
        case nil: break
        case .number(let seconds)? where seconds > 0 && seconds <= 86_400:
            duration = Microseconds((seconds * 1_000_000).rounded())
        case .string(let text)?:
            guard let parsed = ConfigDuration.parse(text), parsed > 0 else {
                throw .badRequest("mode: \"for\" is \"\(text)\": expected \(ConfigDuration.expected), more than 0")
            }
            duration = parsed
        case let value?:
            throw .badRequest("mode: \"for\" is \(value.text): expected \(ConfigDuration.expected) or seconds (at most a day)")
        }
        if mode == nil, duration != nil { throw .badRequest(#"mode: "for" needs a mode to end"#) }
        return ModeRequest(mode: mode, duration: duration, keep: try bool(request, "keep", in: "mode") ?? false)
    }

    private static func bool(_ request: JSONValue, _ key: String, in command: String) throws(ControlError) -> Bool? {
        guard let value = request[key] else { return nil }
        guard let bool = value.boolValue else { throw .badRequest("\(command): \"\(key)\" must be true or false") }
        return bool
    }
}

extension RuntimeCommand {
    /// The row of `ControlCommand` this command is sent as.
    public var controlCommand: ControlCommand {
        switch self {
        case .set: .set
        case .mode: .mode
        case .reset: .reset
        }
    }

    /// The request's members as `init(_:request:)` reads them back: what gesturectl sends.
    public var members: [(String, JSONValue)] {
        switch self {
        case .set(let request):
            var members: [(String, JSONValue)] = [(request.target.kind, .string(request.target.name))]
            if let enabled = request.enabled { members.append(("enabled", .bool(enabled))) }
            if let frame = request.frame {
                let lengths = [("x", frame.x), ("y", frame.y), ("width", frame.width), ("height", frame.height)]
                members.append(("frame", .object(lengths.compactMap { key, length in length.map { (key, Self.json($0)) } })))
            }
            return members + [("keep", .bool(request.keep))]
        case .mode(let request):
            var members: [(String, JSONValue)] = [("mode", .string(request.mode ?? ModeSpec.none)), ("keep", .bool(request.keep))]
            if let duration = request.duration { members.append(("for", .number(Double(duration) / 1_000_000))) }
            return members
        case .reset(let all):
            return [("all", .bool(all))]
        }
    }

    /// px as a number, as in the config; a percentage as its text (`"50%"`).
    private static func json(_ length: FrameLength) -> JSONValue {
        switch length {
        case .pixels(let px): .number(px)
        case .percent: .string(length.description)
        }
    }
}
