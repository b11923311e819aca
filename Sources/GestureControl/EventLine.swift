/// One line of the event stream (docs/PROTOCOL.md, `subscribe`; what `gesturectl replay
/// --json` prints), read back: its kind and its members. The daemon and replay write the
/// lines (ActionDispatch's `EventJSON`); `monitor`, `MonitorText` and the tests read them
/// through this model, never by guessing from the keys they happen to look at.
public struct EventLine: Sendable, Equatable {
    /// What a line says. Each kind has a member no kind before it in this order has: a mode
    /// line has a `from` as a trace line does, a trace line a `gesture` as an event does.
    public enum Kind: String, CaseIterable, Sendable {
        /// The stream's last line: the daemon is stopping.
        case stopping
        /// A mode change (runtime): `mode`, `from`, `until`, `cause`, `by`.
        case mode
        /// A gesture or view whose `enabled` or frame changed (runtime).
        case changed
        /// A runtime change a reload dropped.
        case dropped
        /// A gesture's state transition (`subscribe` with `trace`, `replay --trace`).
        case trace
        /// A contact the health stage filtered, with its rule.
        case filtered
        /// A panel's health changed.
        case health
        /// The screen went idle or became active (`[idle]`).
        case idle
        /// What the application sees of a touch (`replay --delivery`).
        case applicationTouch = "application-touch"
        /// A contact as the engine got it (`subscribe` with `touches`).
        case contact
        /// A gesture event.
        case event

        /// The member that marks the kind, looked for in `allCases` order.
        public var marker: String {
            switch self {
            case .stopping: "stopping"
            case .mode: "mode"
            case .changed: "changed"
            case .dropped: "dropped"
            case .trace: "from"
            case .filtered: "filtered"
            case .health: "health"
            case .idle: "idle"
            case .applicationTouch: "delivery"
            case .contact: "touch"
            case .event: "gesture"
            }
        }

        /// Lines a stream carries beside gesture events about the runtime changes.
        public var isRuntime: Bool { self == .mode || self == .changed || self == .dropped }
    }

    public let kind: Kind
    /// The line's object, its members in the written order.
    public let value: JSONValue

    /// Nil for a value that is no object, or one of no kind.
    public init?(_ value: JSONValue) {
        guard case .object = value, let kind = Kind.allCases.first(where: { value[$0.marker] != nil }) else { return nil }
        self.kind = kind
        self.value = value
    }

    /// A line as read from the socket or replay's output.
    public init?(line: some Collection<UInt8>) {
        guard let value = try? JSONParser.parse(line) else { return nil }
        self.init(value)
    }

    /// Seconds on the stream's clock (docs/PROTOCOL.md, `t`).
    public var t: Double? { value["t"]?.doubleValue }

    public subscript(key: String) -> JSONValue? { value[key] }
}
