/// What the dispatcher did since start, for `status`.
public struct DispatcherCounters: Equatable, Sendable {
    public var commandsStarted = 0
    /// Refused because `max_children` were already running.
    public var commandsRefused = 0
    /// posix_spawn itself failed.
    public var spawnFailures = 0
    /// Exited non-zero or died from a signal (timeouts included).
    public var commandsFailed = 0
    public var commandsTimedOut = 0
    /// Firings skipped because the action's cooldown had not passed.
    public var cooldownSkips = 0
    public var socketMessagesSent = 0
    /// Dropped because the target's queue was full.
    public var socketMessagesDropped = 0
    /// Failed connects and sends.
    public var socketFailures = 0

    public init() {}

    /// The counters as a JSON object (snake_case keys), for status replies.
    public var json: JSONValue {
        .object([
            ("commands_started", .number(Double(commandsStarted))),
            ("commands_refused", .number(Double(commandsRefused))),
            ("spawn_failures", .number(Double(spawnFailures))),
            ("commands_failed", .number(Double(commandsFailed))),
            ("commands_timed_out", .number(Double(commandsTimedOut))),
            ("cooldown_skips", .number(Double(cooldownSkips))),
            ("socket_messages_sent", .number(Double(socketMessagesSent))),
            ("socket_messages_dropped", .number(Double(socketMessagesDropped))),
            ("socket_failures", .number(Double(socketFailures))),
        ])
    }
}
