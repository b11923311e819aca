import JSONOutput

/// Renders a daemon's status as readable tables for `gesturectl status`, one section after
/// another; empty sections that only matter when something is wrong are left out.
public enum StatusText {
    /// The whole status as text, ending in a newline.
    public static func render(_ status: DaemonStatus) -> String {
        let sections: [[String]] = [
            devices(status.devices, uptime: status.uptime), maskedSpots(status.devices, uptime: status.uptime), delivery(status.devices),
            unusable(status.unusableDevices), replay(status.replay), keyboard(status.keyboard),
            views(status.views), gestures(status.gestures), pending(status.pending), runtime(status.runtime), idle(status.idle),
            counters(title: "dispatcher", status.dispatcher), counters(title: "refused at a limit (docs/LIMITS.md)", status.refused),
        ]
        return ([head(status)] + sections.filter { !$0.isEmpty }).map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    /// `key: value` lines: the daemon, its config and last reload, the socket, and the
    /// engine's counters when they are not 0.
    static func head(_ status: DaemonStatus) -> [String] {
        var head: [(String, String)] = [
            ("version", status.version), ("pid", "\(status.pid)"), ("uptime", duration(status.uptime)), ("config", status.config.path),
        ]
        // The drop-ins in force, when there are any (the main file is the first of `files`).
        head += status.config.files.dropFirst().map { ("drop-in", $0) }
        if let reload = status.config.lastReload {
            let when = "at \(duration(reload.at)) uptime"
            if let error = reload.error {
                head.append(("last reload", "FAILED \(when), still running the previous config: \(error)"))
            } else {
                head.append(("last reload", "ok \(when)"))
            }
        }
        let control = status.control.values
        head += [
            ("socket", status.control.path),
            (
                "subscribers",
                "\(number(control[ControlMetrics.subscribers])) (dropped for lagging: \(number(control[ControlMetrics.droppedSubscribers])))"
            ),
        ]
        let dropped = status.engine[EngineMetrics.droppedContacts]
        if dropped > 0 { head.append(("dropped contacts", "\(number(dropped)) (went down while 64 were already tracked)")) }
        let bugs = status.engine[EngineMetrics.engineBugs]
        if bugs > 0 {
            head.append(
                ("engine bugs", "\(number(bugs)) illegal phase changes refused (a bug: please report it with `gesturectl monitor --trace`)")
            )
        }
        let keyWidth = head.map(\.0.count).max() ?? 0
        return head.map { pad($0.0 + ":", keyWidth + 1) + " " + $0.1 }
    }

    static func devices(_ devices: [DeviceStatus], uptime: Double) -> [String] {
        table(
            title: "devices", ["name", "path", "contacts", "calibration", "health", "filtered", "fps", "last touch"],
            devices.map {
                [
                    $0.name, $0.path, number($0.values[DeviceMetrics.contacts]), $0.calibration, $0.health, filtered($0.filtered),
                    number($0.activity[DeviceMetrics.framesPerSecond]), $0.lastTouch.map { ago($0, uptime) } ?? "never",
                ]
            }, empty: "no touchscreen")
    }

    /// The recurring spots masked now, per panel; nothing when none is.
    static func maskedSpots(_ devices: [DeviceStatus], uptime: Double) -> [String] {
        let rows = devices.flatMap { device in
            device.maskedSpots.map {
                [
                    device.path, "\(number($0.x.rounded())), \(number($0.y.rounded()))", ago($0.since, uptime),
                    "in " + duration(max(0, $0.until - uptime)),
                ]
            }
        }
        guard !rows.isEmpty else { return [] }
        return table(title: "masked spots (recurring noise)", ["path", "at px", "since", "released"], rows, empty: "")
    }

    /// `12s ago`: from uptime seconds `at` to `uptime`.
    static func ago(_ at: Double, _ uptime: Double) -> String { duration(max(0, uptime - at)) + " ago" }

    /// `ghost 3, stuck 1`: the rules that filtered anything; `-` when none did.
    static func filtered(_ values: MetricValues) -> String {
        let rules = zip(values.metrics, values.values).filter { $0.1 > 0 }.map { "\($0.0.key) \(number($0.1))" }
        return rules.isEmpty ? "-" : rules.joined(separator: ", ")
    }

    /// The grabbed panels and their clones; nothing without touch delivery.
    static func delivery(_ devices: [DeviceStatus]) -> [String] {
        let rows: [[String]] = devices.compactMap { device in
            if let reason = device.grabImpossible { return [device.path, reason, "-", "-", "-", "-", "-"] }
            guard let delivery = device.delivery else { return nil }
            return [device.path, delivery.grab, delivery.virtual, delivery.cancel]
                + [DeviceMetrics.passed, DeviceMetrics.delayed, DeviceMetrics.cancelled].map { number(delivery.counts[$0]) }
        }
        guard !rows.isEmpty else { return [] }
        return table(
            title: "touch delivery (grabbed panels and the clones applications read)",
            ["path", "grab", "virtual", "cancel", "passed", "delayed", "cancelled"], rows, empty: "")
    }

    static func unusable(_ devices: [UnusableDevice]) -> [String] {
        guard !devices.isEmpty else { return [] }
        return table(
            title: "touchscreens not in use", ["path", "name", "error"],
            devices.map { [$0.path, $0.name, $0.error.split(separator: "\n").joined(separator: "; ")] }, empty: "")
    }

    /// gestured's keyboard: its node and keys, what is down, and what went wrong.
    static func keyboard(_ keyboard: KeyboardStatus?) -> [String] {
        guard let keyboard else { return [] }
        var lines = [
            "keyboard: \(keyboard.name) (\(keyboard.path ?? "not made: \(keyboard.error ?? "?")")), keys \(keyboard.keys.joined(separator: " "))"
        ]
        if !keyboard.down.isEmpty { lines.append("  down: \(keyboard.down.joined(separator: " "))") }
        if keyboard.writeFailures > 0 { lines.append("  write failures: \(keyboard.writeFailures)") }
        if keyboard.watchdogReleases > 0 { lines.append("  held keys released by the watchdog: \(keyboard.watchdogReleases)") }
        return lines
    }

    static func replay(_ replay: ReplayStatus?) -> [String] {
        replay.map { ["replay: \($0.path) (\($0.state))"] } ?? []
    }

    static func views(_ views: [ViewStatus]) -> [String] {
        table(
            title: "views", ["name", "parent", "frame"],
            views.map { [$0.name + ($0.enabled ? "" : " (disabled)"), $0.parent ?? "-", $0.frame.map(number).joined(separator: " ")] },
            empty: "none")
    }

    static func gestures(_ gestures: [GestureStatus]) -> [String] {
        table(
            title: "gestures", ["name", "type", "view", "state", "count"],
            gestures.map {
                [$0.name + ($0.enabled ? "" : " (disabled)"), $0.type, $0.view, $0.state, number($0.values[GestureMetrics.count])]
            }, empty: "none")
    }

    static func pending(_ pending: [PendingStatus]) -> [String] {
        guard !pending.isEmpty else { return [] }
        return table(
            title: "pending failure requirements", ["gesture", "waiting for", "since"],
            pending.map { [$0.gesture, $0.waitingFor.joined(separator: ", "), "\(Int($0.milliseconds)) ms"] }, empty: "")
    }

    /// A section's counters as an indented `name: value` list under its title.
    static func counters(title: String, _ values: MetricValues) -> [String] {
        let width = values.metrics.map(\.key.count).max() ?? 0
        return [title]
            + zip(values.metrics, values.values).map { "  " + pad($0.key.replacingUnderscores + ":", width + 1) + " " + number($1) }
    }

    /// The mode in force and the changes, who made them and since when; nothing when the
    /// config alone is in force.
    static func runtime(_ runtime: RuntimeStatus) -> [String] {
        guard runtime.mode != nil || !runtime.changes.isEmpty else { return [] }
        var lines: [String] = []
        if let mode = runtime.mode {
            let until = mode.until.map { ", ends at \(duration($0)) uptime" } ?? ""
            lines.append("mode: \(mode.name) (by \(mode.owner) at \(duration(mode.since)) uptime\(until)\(mode.keep ? ", kept" : ""))")
            lines.append("")
        }
        return lines
            + table(
                title: "changes", ["target", "change", "by", "since", "keep"],
                runtime.changes.map { change in
                    var what: [String] = []
                    if let enabled = change.enabled { what.append(enabled ? "enabled" : "disabled") }
                    if let frame = change.frame { what.append("frame " + frame.joined(separator: " ")) }
                    return [
                        "\(change.kind) \(change.name)", what.joined(separator: ", "), change.owner.description, duration(change.since),
                        change.keep ? "yes" : "no",
                    ]
                }, empty: "none")
    }

    /// `idle: active since 12.5s uptime (after 5m; 3 sleeps, 3 wakes)`; nothing without `[idle]`.
    static func idle(_ idle: IdleStatus?) -> [String] {
        guard let idle else { return [] }
        let sleeps = number(idle.values[IdleMetrics.sleeps])
        let wakes = number(idle.values[IdleMetrics.wakes])
        return [
            "idle: \(idle.state) since \(duration(idle.since)) uptime (after \(duration(idle.after)); \(sleeps) sleeps, \(wakes) wakes)"
        ]
    }

    static func table(title: String, _ header: [String], _ rows: [[String]], empty: String) -> [String] {
        guard !rows.isEmpty else { return ["\(title): \(empty)"] }
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            "  " + cells.enumerated().map { pad($0.1, widths[$0.0]) }.joined(separator: "  ").trimmedRight
        }
        return [title, line(header.map { $0.uppercased() })] + rows.map(line)
    }

    /// Integers without decimals.
    static func number(_ n: Double) -> String { n.rounded() == n && abs(n) < 1e15 ? "\(Int(n))" : "\(n)" }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds)
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? "\(h)h \(m)m \(s)s" : m > 0 ? "\(m)m \(s)s" : "\(s)s"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
    fileprivate var trimmedRight: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
