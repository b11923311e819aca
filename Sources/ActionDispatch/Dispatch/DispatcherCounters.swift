import GestureControl

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

    /// The counters as `status.dispatcher` (running children apart: the runner knows them).
    public var values: MetricValues {
        var values = MetricValues(DispatcherMetrics.all)
        let counts: [(Metric, Int)] = [
            (DispatcherMetrics.commandsStarted, commandsStarted), (DispatcherMetrics.commandsRefused, commandsRefused),
            (DispatcherMetrics.spawnFailures, spawnFailures), (DispatcherMetrics.commandsFailed, commandsFailed),
            (DispatcherMetrics.commandsTimedOut, commandsTimedOut), (DispatcherMetrics.cooldownSkips, cooldownSkips),
            (DispatcherMetrics.socketMessagesSent, socketMessagesSent), (DispatcherMetrics.socketMessagesDropped, socketMessagesDropped),
            (DispatcherMetrics.socketFailures, socketFailures),
        ]
        for (metric, count) in counts { values[metric] = Double(count) }
        return values
    }
}
