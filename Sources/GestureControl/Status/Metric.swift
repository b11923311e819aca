/// One kind of number the daemon exports, declared once by the part that counts it. The
/// `status` JSON, `gesturectl status` and the Prometheus exposition all render from these
/// declarations, so a number has one name, one meaning and one unit everywhere.
public struct MetricFamily: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Only goes up (until the daemon restarts).
        case counter
        /// Goes up and down.
        case gauge
        /// Observations counted into fixed buckets, with their sum and count
        /// (`_bucket{le=...}`, `_sum`, `_count`): what a fleet aggregates and takes quantiles of.
        case histogram
    }

    /// The unit of the number in the `status` JSON; the exposition converts it to the base
    /// unit Prometheus names (seconds).
    public enum Unit: String, Sendable {
        case none
        case seconds
        case microseconds
    }

    /// The name after `gestured_` and before the unit and `_total` suffixes, which the
    /// exposition adds from `unit` and `kind`.
    public let name: String
    public let help: String
    public let kind: Kind
    public let unit: Unit
    /// The labels of every series, in order: the owner's (`device`, `gesture`) first,
    /// then a metric's own (`reason`).
    public let labels: [String]
    /// False for a number only `status` shows: a rate or percentile over the daemon's own
    /// recent window, which one kiosk's operator reads but a fleet cannot add up (the
    /// exposition has the counter or histogram it comes from instead).
    public let exposed: Bool

    public init(_ name: String, _ kind: Kind, unit: Unit = .none, labels: [String] = [], exposed: Bool = true, help: String) {
        self.name = name
        self.help = help
        self.kind = kind
        self.unit = unit
        self.labels = labels
        self.exposed = exposed
    }

    /// The Prometheus family name: `gestured_` prefix, base unit, `_total` on counters.
    public var exposedName: String {
        "gestured_" + name + (unit == .none ? "" : "_seconds") + (kind == .counter ? "_total" : "")
    }
}

/// One number of a status section: the member `key` of the section's JSON object, the
/// family it belongs to, and the values of the family's own labels (a refusal's `reason`).
public struct Metric: Sendable, Equatable {
    public let key: String
    public let family: MetricFamily
    public let labelValues: [String]

    public init(_ key: String, _ family: MetricFamily, labelValues: [String] = []) {
        self.key = key
        self.family = family
        self.labelValues = labelValues
    }
}

/// The values of a fixed list of metrics, in their declared order: a section of `status`
/// such as `dispatcher`, a JSON object of numbers.
public struct MetricValues: Sendable, Equatable {
    public let metrics: [Metric]
    public private(set) var values: [Double]

    /// Every metric at 0.
    public init(_ metrics: [Metric]) {
        self.metrics = metrics
        values = Array(repeating: 0, count: metrics.count)
    }

    /// The metrics read back from their JSON object; absent members are 0.
    public init(_ metrics: [Metric], json: JSONValue?) {
        self.init(metrics)
        for (i, metric) in metrics.enumerated() { values[i] = json?[metric.key]?.doubleValue ?? 0 }
    }

    public subscript(metric: Metric) -> Double {
        get { metrics.firstIndex(of: metric).map { values[$0] } ?? 0 }
        set {
            guard let i = metrics.firstIndex(of: metric) else { preconditionFailure("\(metric.key) is not in this section") }
            values[i] = newValue
        }
    }

    /// The section's JSON members, `key: number` in declared order.
    public var members: [(String, JSONValue)] { zip(metrics, values).map { ($0.key, .number($1)) } }
}

extension Metric {
    /// A metric whose family is its own, named after its JSON key unless `named` says otherwise.
    static func counter(_ key: String, named name: String? = nil, labels: [String] = [], help: String) -> Metric {
        Metric(key, MetricFamily(name ?? key, .counter, labels: labels, help: help))
    }

    static func gauge(
        _ key: String, named name: String? = nil, unit: MetricFamily.Unit = .none, labels: [String] = [], exposed: Bool = true,
        help: String
    ) -> Metric {
        Metric(key, MetricFamily(name ?? key, .gauge, unit: unit, labels: labels, exposed: exposed, help: help))
    }
}

/// Observations in fixed buckets (a Prometheus histogram): the count of each bucket (not
/// cumulative), their sum and count. Fixed size, so recording allocates nothing.
public struct Histogram: Sendable, Equatable {
    /// Each bucket's upper bound, ascending, in the family's JSON unit; the last bucket
    /// (+Inf) is implied.
    public let bounds: [Double]
    /// `bounds.count + 1` counts: one per bound, then the observations above the last.
    public private(set) var counts: [Double]
    public private(set) var sum: Double = 0
    public var count: Double { counts.reduce(0, +) }

    public init(bounds: [Double]) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    public mutating func record(_ value: Double) {
        var i = 0
        while i < bounds.count && value > bounds[i] { i += 1 }
        counts[i] += 1
        sum += value
    }

    /// `{"le": [bounds], "counts": [per bucket, the last above every bound], "sum": number}`.
    public var json: JSONValue {
        .object([
            ("le", .array(bounds.map { .number($0) })), ("counts", .array(counts.map { .number($0) })), ("sum", .number(sum)),
        ])
    }

    /// Read back; nil when the JSON's buckets are not `bounds` (another daemon's).
    public init?(bounds: [Double], json: JSONValue?) {
        guard let json, json["le"]?.arrayValue?.compactMap(\.doubleValue) == bounds,
            let counts = json["counts"]?.arrayValue?.compactMap(\.doubleValue), counts.count == bounds.count + 1
        else { return nil }
        self.bounds = bounds
        self.counts = counts
        sum = json["sum"]?.doubleValue ?? 0
    }
}
