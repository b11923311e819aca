import JSONOutput

/// `status.idle`: the idle rule (`[idle]`) now: `active`, `idle` or `waking` (the waking
/// touch is down), since when (seconds of uptime), its `after`, and its counts.
public struct IdleStatus: Equatable, Sendable {
    public var state: String
    public var since: Double
    public var after: Double
    /// `IdleMetrics.all`.
    public var values = MetricValues(IdleMetrics.all)

    public init(state: String, since: Double, after: Double) {
        self.state = state
        self.since = since
        self.after = after
    }

    var json: JSONValue {
        .object([("state", .string(state)), ("since_s", .number(since)), ("after_s", .number(after))] + values.members)
    }

    init(json: JSONValue) {
        state = json["state"]?.stringValue ?? "?"
        since = json["since_s"]?.doubleValue ?? 0
        after = json["after_s"]?.doubleValue ?? 0
        values = MetricValues(IdleMetrics.all, json: json)
    }
}
