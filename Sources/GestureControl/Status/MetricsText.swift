/// A daemon's status in Prometheus' text exposition format (version 0.0.4, which
/// OpenMetrics parsers also read): `gesturectl metrics`, the `metrics` command and
/// `[daemon] metrics_file`. Each family's `# HELP` and `# TYPE` once, its series together,
/// label values escaped, times as Unix timestamps, a final newline. Labels hold only names
/// from the config, devices and fixed reasons, so the series stay few.
public enum MetricsText {
    /// The content type a scraper is told.
    public static let contentType = "text/plain; version=0.0.4"

    /// One series: its family, its label pairs and its value in the exposition's unit
    /// (seconds); `suffix` names a histogram's `_bucket`, `_sum` and `_count`. Its labels
    /// are kept in parts that a render shares, not copied per series: the owner's
    /// (`device`, `gesture`), the metric's own values, then one more (`state`, `le`, `path`).
    struct Sample {
        var family: MetricFamily
        var owner: [(String, String)] = []
        var own: [String] = []
        var extra: (String, String)?
        var value: Double
        var suffix = ""

        /// Every label pair, in order (allocates: for tests and checks, not the render).
        var labels: [(String, String)] {
            let names = family.labels.suffix(own.count)
            return owner + zip(names, own).map { ($0, $1) } + (extra.map { [$0] } ?? [])
        }
    }

    public static func render(_ status: DaemonStatus) -> String {
        let renderer = MetricsRenderer()
        return String(decoding: renderer.render(status), as: UTF8.self)
    }

    /// Every series of `status`, section by section.
    static func samples(_ status: DaemonStatus) -> [Sample] {
        var samples: [Sample] = []
        collect(status, into: &samples)
        return samples
    }

    static func collect(_ status: DaemonStatus, into samples: inout [Sample]) {
        samples.append(Sample(family: DaemonMetrics.buildInfo, extra: ("version", status.version), value: 1))
        samples.append(Sample(family: DaemonMetrics.configInfo, extra: ("path", status.config.path), value: 1))
        samples.append(Sample(family: DaemonMetrics.startTime, value: status.startTime))
        values(status.config.reloads, into: &samples)
        // Before any reload, the load at start is the last one (it was taken, or the daemon
        // would not run).
        let reload = status.config.lastReload
        samples.append(Sample(family: DaemonMetrics.lastReloadTime, value: status.startTime + status.config.loadedAt))
        samples.append(Sample(family: DaemonMetrics.lastReloadAttempt, value: status.startTime + (reload?.at ?? 0)))
        samples.append(Sample(family: DaemonMetrics.lastReloadSuccess, value: reload?.error == nil ? 1 : 0))
        samples.append(Sample(family: DaemonMetrics.metricsInterval, value: status.config.metricsInterval))
        samples.append(Sample(family: DaemonMetrics.unusableDevices, value: Double(status.unusableDevices.count)))
        values(status.engine, into: &samples)
        for device in status.devices {
            let labels = [("device", device.name), ("id_path", device.idPath)]
            samples.append(Sample(family: DeviceMetrics.info, owner: labels, extra: ("path", device.path), value: 1))
            values(device.values, labels, into: &samples)
            values(device.input, labels, into: &samples)
            values(device.filtered, labels, into: &samples)
            samples.append(Sample(family: DeviceMetrics.lastFrame, owner: labels, value: status.startTime + (device.lastFrame ?? 0)))
            samples.append(Sample(family: DeviceMetrics.lastTouch, owner: labels, value: status.startTime + (device.lastTouch ?? 0)))
            values(device.activity, labels, into: &samples)
            samples.append(Sample(family: DeviceMetrics.maskedSpots, owner: labels, value: Double(device.maskedSpots.count)))
            for state in DeviceMetrics.healthStates {
                samples.append(
                    Sample(family: DeviceMetrics.health, owner: labels, extra: ("state", state), value: device.health == state ? 1 : 0))
            }
            // Only a panel with passthrough = true is ever grabbed.
            if device.delivery != nil || device.grabImpossible != nil {
                samples.append(
                    Sample(family: DeviceMetrics.grabbed.family, owner: labels, value: device.delivery?.grabbed == true ? 1 : 0))
            }
            if let delivery = device.delivery {
                values(delivery.counts, labels, into: &samples)
                if let histogram = delivery.delayHistogram { buckets(histogram, DeviceMetrics.delayHistogram, labels, into: &samples) }
            }
        }
        for gesture in status.gestures { values(gesture.values, [("gesture", gesture.name)], into: &samples) }
        for gesture in status.gestures { values(gesture.events, [("gesture", gesture.name)], into: &samples) }
        values(status.dispatcher, into: &samples)
        values(status.control.values, into: &samples)
        values(status.refused, into: &samples)
        if let idle = status.idle { values(idle.values, into: &samples) }
    }

    /// A section's exposed metrics under the owner's labels, each with its own label values
    /// after them.
    static func values(_ section: MetricValues, _ labels: [(String, String)] = [], into samples: inout [Sample]) {
        for i in section.metrics.indices where section.metrics[i].family.exposed {
            let metric = section.metrics[i]
            samples.append(
                Sample(family: metric.family, owner: labels, own: metric.labelValues, value: baseUnit(section.values[i], metric.family)))
        }
    }

    /// A histogram's cumulative buckets (`le` in the base unit, `+Inf` last), sum and count.
    static func buckets(_ histogram: Histogram, _ family: MetricFamily, _ labels: [(String, String)], into samples: inout [Sample]) {
        var cumulative: Double = 0
        for (i, count) in histogram.counts.enumerated() {
            cumulative += count
            let bound = i < histogram.bounds.count ? number(baseUnit(histogram.bounds[i], family)) : "+Inf"
            samples.append(Sample(family: family, owner: labels, extra: ("le", bound), value: cumulative, suffix: "_bucket"))
        }
        samples.append(Sample(family: family, owner: labels, value: baseUnit(histogram.sum, family), suffix: "_sum"))
        samples.append(Sample(family: family, owner: labels, value: histogram.count, suffix: "_count"))
    }

    /// A value of the family's JSON unit in Prometheus' base unit.
    static func baseUnit(_ value: Double, _ family: MetricFamily) -> Double {
        family.unit == .microseconds ? value / 1_000_000 : value
    }

    /// Integers without a decimal point, others as Swift prints them (Go's ParseFloat,
    /// which Prometheus uses, reads both, exponents included).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        return value.rounded() == value && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
    }

    /// `\` and newline escaped, and in a label value `"` too, as the format requires.
    static func escape(_ text: String, quotes: Bool) -> String {
        var out: [UInt8] = []
        escape(text, quotes: quotes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same, appended to `out`. By byte: the three are ASCII, which UTF-8 never uses
    /// inside another character ("\r\n" is one Character, and its newline is escaped too).
    static func escape(_ text: String, quotes: Bool, into out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "\n"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte == UInt8(ascii: "\n") ? UInt8(ascii: "n") : byte)
            case UInt8(ascii: "\"") where quotes:
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            default: out.append(byte)
            }
        }
    }
}

/// Renders `MetricsText` into buffers it keeps from one render to the next (the daemon's
/// `metrics_file` every `metrics_interval`, the `metrics` command): the series, each
/// family's lines, the exposition, and each family's exposed name, worked out once.
public final class MetricsRenderer {
    private var samples: [MetricsText.Sample] = []
    /// Per family seen, in the order first seen: its exposed name and this render's lines.
    private var slots: [String: Int] = [:]
    private var names: [[UInt8]] = []
    private var families: [MetricFamily] = []
    private var lines: [[UInt8]] = []
    /// The families of this render, in the order their first series came.
    private var order: [Int] = []
    private var out: [UInt8] = []

    public init() {}

    /// The exposition of `status`, valid until the next render.
    public func render(_ status: DaemonStatus) -> [UInt8] {
        samples.removeAll(keepingCapacity: true)
        MetricsText.collect(status, into: &samples)
        order.removeAll(keepingCapacity: true)
        for slot in lines.indices { lines[slot].removeAll(keepingCapacity: true) }
        for sample in samples {
            let slot = self.slot(of: sample.family)
            if lines[slot].isEmpty { order.append(slot) }
            line(sample, slot: slot)
        }
        out.removeAll(keepingCapacity: true)
        for slot in order {
            let family = families[slot]
            out.append(contentsOf: "# HELP ".utf8)
            out += names[slot]
            out.append(UInt8(ascii: " "))
            MetricsText.escape(family.help, quotes: false, into: &out)
            out.append(contentsOf: "\n# TYPE ".utf8)
            out += names[slot]
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: family.kind.rawValue.utf8)
            out.append(UInt8(ascii: "\n"))
            out += lines[slot]
        }
        return out
    }

    private func slot(of family: MetricFamily) -> Int {
        if let slot = slots[family.name] { return slot }
        slots[family.name] = names.count
        names.append(Array(family.exposedName.utf8))
        families.append(family)
        lines.append([])
        return names.count - 1
    }

    private func line(_ sample: MetricsText.Sample, slot: Int) {
        lines[slot] += names[slot]
        lines[slot].append(contentsOf: sample.suffix.utf8)
        let ownNames = sample.family.labels.suffix(sample.own.count)
        if !sample.owner.isEmpty || !sample.own.isEmpty || sample.extra != nil {
            var first = true
            func label(_ name: String, _ value: String) {
                lines[slot].append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
                first = false
                lines[slot].append(contentsOf: name.utf8)
                lines[slot].append(UInt8(ascii: "="))
                lines[slot].append(UInt8(ascii: "\""))
                MetricsText.escape(value, quotes: true, into: &lines[slot])
                lines[slot].append(UInt8(ascii: "\""))
            }
            for (name, value) in sample.owner { label(name, value) }
            for (name, value) in zip(ownNames, sample.own) { label(name, value) }
            if let (name, value) = sample.extra { label(name, value) }
            lines[slot].append(UInt8(ascii: "}"))
        }
        lines[slot].append(UInt8(ascii: " "))
        lines[slot].append(contentsOf: MetricsText.number(sample.value).utf8)
        lines[slot].append(UInt8(ascii: "\n"))
    }
}
