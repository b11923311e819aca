/// A daemon's status in Prometheus' text exposition format (version 0.0.4, which
/// OpenMetrics parsers also read): `gesturectl metrics`, the `metrics` command and
/// `[daemon] metrics_file`. Each family's `# HELP` and `# TYPE` once, its series together,
/// label values escaped, times as Unix timestamps, a final newline. Labels hold only names
/// from the config, devices and fixed reasons, so the series stay few.
public enum MetricsText {
    /// The content type a scraper is told.
    public static let contentType = "text/plain; version=0.0.4"

    /// One series: its family, its label pairs and its value in the exposition's unit
    /// (seconds); `suffix` names a histogram's `_bucket`, `_sum` and `_count`.
    struct Sample {
        var family: MetricFamily
        var labels: [(String, String)]
        var value: Double
        var suffix = ""
    }

    public static func render(_ status: DaemonStatus) -> String {
        var families: [MetricFamily] = []
        var series: [String: [Sample]] = [:]
        for sample in samples(status) {
            let name = sample.family.exposedName
            if series[name] == nil { families.append(sample.family) }
            series[name, default: []].append(sample)
        }
        var out = ""
        for family in families {
            out +=
                "# HELP \(family.exposedName) \(escape(family.help, quotes: false))\n# TYPE \(family.exposedName) \(family.kind.rawValue)\n"
            for sample in series[family.exposedName] ?? [] { out += line(sample) }
        }
        return out
    }

    /// Every series of `status`, section by section.
    static func samples(_ status: DaemonStatus) -> [Sample] {
        var samples = [
            Sample(family: DaemonMetrics.buildInfo, labels: [("version", status.version)], value: 1),
            Sample(family: DaemonMetrics.configInfo, labels: [("path", status.config.path)], value: 1),
            Sample(family: DaemonMetrics.startTime, labels: [], value: status.startTime),
        ]
        samples += values(status.config.reloads)
        // Before any reload, the load at start is the last one (it was taken, or the daemon
        // would not run).
        let reload = status.config.lastReload
        samples += [
            Sample(family: DaemonMetrics.lastReloadTime, labels: [], value: status.startTime + status.config.loadedAt),
            Sample(family: DaemonMetrics.lastReloadAttempt, labels: [], value: status.startTime + (reload?.at ?? 0)),
            Sample(family: DaemonMetrics.lastReloadSuccess, labels: [], value: reload?.error == nil ? 1 : 0),
            Sample(family: DaemonMetrics.metricsInterval, labels: [], value: status.config.metricsInterval),
            Sample(family: DaemonMetrics.unusableDevices, labels: [], value: Double(status.unusableDevices.count)),
        ]
        samples += values(status.engine)
        for device in status.devices {
            let labels = [("device", device.name), ("id_path", device.idPath)]
            samples.append(Sample(family: DeviceMetrics.info, labels: labels + [("path", device.path)], value: 1))
            samples += values(device.values, labels)
            samples += values(device.input, labels) + values(device.filtered, labels)
            samples.append(Sample(family: DeviceMetrics.lastFrame, labels: labels, value: status.startTime + (device.lastFrame ?? 0)))
            samples.append(Sample(family: DeviceMetrics.lastTouch, labels: labels, value: status.startTime + (device.lastTouch ?? 0)))
            samples += values(device.activity, labels)
            samples.append(Sample(family: DeviceMetrics.maskedSpots, labels: labels, value: Double(device.maskedSpots.count)))
            for state in DeviceMetrics.healthStates {
                samples.append(
                    Sample(family: DeviceMetrics.health, labels: labels + [("state", state)], value: device.health == state ? 1 : 0))
            }
            // Only a panel with passthrough = true is ever grabbed.
            if device.delivery != nil || device.grabImpossible != nil {
                samples.append(
                    Sample(family: DeviceMetrics.grabbed.family, labels: labels, value: device.delivery?.grabbed == true ? 1 : 0))
            }
            if let delivery = device.delivery {
                samples += values(delivery.counts, labels)
                if let histogram = delivery.delayHistogram { samples += buckets(histogram, DeviceMetrics.delayHistogram, labels) }
            }
        }
        for gesture in status.gestures { samples += values(gesture.values, [("gesture", gesture.name)]) }
        for gesture in status.gestures { samples += values(gesture.events, [("gesture", gesture.name)]) }
        samples += values(status.dispatcher) + values(status.control.values) + values(status.refused)
        if let idle = status.idle { samples += values(idle.values) }
        return samples
    }

    /// A section's exposed metrics under the owner's labels, each with its own label values
    /// after them.
    static func values(_ section: MetricValues, _ labels: [(String, String)] = []) -> [Sample] {
        zip(section.metrics, section.values).compactMap { metric, value in
            guard metric.family.exposed else { return nil }
            let own = metric.family.labels.suffix(metric.labelValues.count)
            return Sample(
                family: metric.family, labels: labels + zip(own, metric.labelValues).map { ($0, $1) },
                value: baseUnit(value, metric.family))
        }
    }

    /// A histogram's cumulative buckets (`le` in the base unit, `+Inf` last), sum and count.
    static func buckets(_ histogram: Histogram, _ family: MetricFamily, _ labels: [(String, String)]) -> [Sample] {
        var samples: [Sample] = []
        var cumulative: Double = 0
        for (i, count) in histogram.counts.enumerated() {
            cumulative += count
            let bound = i < histogram.bounds.count ? number(baseUnit(histogram.bounds[i], family)) : "+Inf"
            samples.append(Sample(family: family, labels: labels + [("le", bound)], value: cumulative, suffix: "_bucket"))
        }
        samples.append(Sample(family: family, labels: labels, value: baseUnit(histogram.sum, family), suffix: "_sum"))
        samples.append(Sample(family: family, labels: labels, value: histogram.count, suffix: "_count"))
        return samples
    }

    /// A value of the family's JSON unit in Prometheus' base unit.
    static func baseUnit(_ value: Double, _ family: MetricFamily) -> Double {
        family.unit == .microseconds ? value / 1_000_000 : value
    }

    static func line(_ sample: Sample) -> String {
        let labels =
            sample.labels.isEmpty
            ? "" : "{" + sample.labels.map { "\($0.0)=\"\(escape($0.1, quotes: true))\"" }.joined(separator: ",") + "}"
        return sample.family.exposedName + sample.suffix + labels + " " + number(sample.value) + "\n"
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
        var out = ""
        // By scalar: "\r\n" is one Character, and its newline must be escaped too.
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"" where quotes: out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
