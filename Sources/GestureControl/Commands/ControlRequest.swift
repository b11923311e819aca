/// A control request read into its command's typed value (`ControlCommand.request(_:)`).
public enum ControlRequest: Equatable, Sendable {
    /// Served by the control server itself: the connection becomes an event stream.
    case subscribe(SubscribeRequest)
    /// Handed to the daemon's handler.
    case daemon(DaemonRequest)
}

/// The requests the daemon answers from its live state (the server serves `subscribe`).
public enum DaemonRequest: Equatable, Sendable {
    case status
    case reload
    case devices
    case trigger(TriggerRequest)
    case metrics
    case replayStart
    /// `set`, `mode`, `reset`.
    case runtime(RuntimeCommand)
}

/// `subscribe`: which lines the stream carries beside the events.
public struct SubscribeRequest: Equatable, Sendable {
    /// The transition trace (`"trace": true`).
    public var trace: Bool
    /// Each frame's contacts (`"touches": true`).
    public var touches: Bool
    /// `changed` events at the display's pace, as actions get them (`"coalesce": true`).
    public var coalesce: Bool

    public init(trace: Bool = false, touches: Bool = false, coalesce: Bool = false) {
        self.trace = trace
        self.touches = touches
        self.coalesce = coalesce
    }

    /// A member that is not `true` or `false` counts as left out.
    init(_ json: JSONValue) {
        self.init(
            trace: json["trace"]?.boolValue ?? false, touches: json["touches"]?.boolValue ?? false,
            coalesce: json["coalesce"]?.boolValue ?? false)
    }
}

/// `trigger`: a gesture by name and, optionally, the state to run its actions for (the
/// daemon resolves both against the config in force).
public struct TriggerRequest: Equatable, Sendable {
    public var gesture: String
    /// A state's name (`recognized`, `began` ...); nil: the daemon's default for the type.
    public var state: String?

    public init(gesture: String, state: String? = nil) {
        self.gesture = gesture
        self.state = state
    }

    /// A `state` that is not a string counts as left out.
    init(_ json: JSONValue) throws(ControlError) {
        guard let gesture = json["gesture"]?.stringValue else { throw .badRequest(#"trigger needs "gesture": NAME"#) }
        self.init(gesture: gesture, state: json["state"]?.stringValue)
    }
}
