import JSONOutput
import TouchInput

/// Renders a `status` reply as readable tables for `gesturectl status`. Missing sections
/// are left out, so a daemon with less to say still prints.
public enum StatusText {
    /// The whole `status` reply as text, ending in a newline.
    public static func render(_ status: JSONValue) -> String {
        var out: [String] = []
        var head: [(String, String)] = []
        if let version = status["version"]?.stringValue { head.append(("version", version)) }
        if let pid = status["pid"]?.intValue { head.append(("pid", "\(pid)")) }
        if let uptime = status["uptime_s"]?.doubleValue { head.append(("uptime", duration(uptime))) }
        if let config = status["config"] {
            if let path = config["path"]?.stringValue { head.append(("config", path)) }
            // The drop-ins in force, when there are any (the main file is the first of `files`).
            for file in config["files"]?.arrayValue?.dropFirst() ?? [] {
                head.append(("drop-in", file.stringValue ?? "?"))
            }
            if let reload = config["last_reload"], reload != .null {
                let when = reload["at_s"]?.doubleValue.map { "at \(duration($0)) uptime" } ?? ""
                if reload["ok"]?.boolValue == true {
                    head.append(("last reload", "ok \(when)"))
                } else {
                    head.append(
                        ("last reload", "FAILED \(when), still running the previous config: \(reload["error"]?.stringValue ?? "?")"))
                }
            }
        }
        if let control = status["control"] {
            head.append(("socket", control["path"]?.stringValue ?? "?"))
            head.append(
                (
                    "subscribers",
                    "\(control["subscribers"]?.intValue ?? 0) (dropped for lagging: \(control["dropped_subscribers"]?.intValue ?? 0))"
                ))
        }
        if let dropped = status["dropped_contacts"]?.intValue, dropped > 0 {
            head.append(("dropped contacts", "\(dropped) (went down while 64 were already tracked)"))
        }
        if let bugs = status["engine_bugs"]?.intValue, bugs > 0 {
            head.append(
                ("engine bugs", "\(bugs) illegal phase changes refused (a bug: please report it with `gesturectl monitor --trace`)"))
        }
        let keyWidth = head.map(\.0.count).max() ?? 0
        out += head.map { pad($0.0 + ":", keyWidth + 1) + " " + $0.1 }

        if let devices = status["devices"]?.arrayValue {
            out.append("")
            out += table(
                title: "devices", ["name", "path", "contacts", "calibration"],
                devices.map {
                    [text($0["name"]), text($0["path"]), text($0["contacts"]), text($0["calibration"])]
                }, empty: "no touchscreen")
        }
        if let grabbed = status["devices"]?.arrayValue?.filter({ $0["virtual"] != nil }), !grabbed.isEmpty {
            out.append("")
            out += table(
                title: "touch delivery (grabbed panels and the clones applications read)",
                ["path", "grab", "virtual", "cancel", "passed", "delayed", "cancelled"],
                grabbed.map {
                    [
                        text($0["path"]), text($0["grab"]), text($0["virtual"]), text($0["cancel"]), text($0["passed"]),
                        text($0["delayed"]), text($0["cancelled"]),
                    ]
                }, empty: "")
        }
        if let unusable = status["unusable_devices"]?.arrayValue, !unusable.isEmpty {
            out.append("")
            out += table(
                title: "touchscreens not in use", ["path", "name", "error"],
                unusable.map {
                    [text($0["path"]), text($0["name"]), text($0["error"]).split(separator: "\n").joined(separator: "; ")]
                }, empty: "")
        }
        if let replay = status["replay"] {
            out.append("")
            out.append("replay: \(text(replay["path"])) (\(text(replay["state"])))")
        }
        if let views = status["views"]?.arrayValue {
            out.append("")
            out += table(
                title: "views", ["name", "parent", "frame"],
                views.map {
                    [text($0["name"]), text($0["parent"]), $0["frame"]?.arrayValue.map { $0.map(text).joined(separator: " ") } ?? "-"]
                }, empty: "none")
        }
        if let gestures = status["gestures"]?.arrayValue {
            out.append("")
            out += table(
                title: "gestures", ["name", "type", "view", "state", "count"],
                gestures.map {
                    [text($0["name"]), text($0["type"]), text($0["view"]), text($0["state"]), text($0["count"])]
                }, empty: "none")
        }
        if let pending = status["pending"]?.arrayValue, !pending.isEmpty {
            out.append("")
            out += table(
                title: "pending failure requirements", ["gesture", "waiting for", "since"],
                pending.map {
                    [
                        text($0["gesture"]), $0["waiting_for"]?.arrayValue.map { $0.map(text).joined(separator: ", ") } ?? "-",
                        $0["ms"]?.doubleValue.map { "\(Int($0)) ms" } ?? "-",
                    ]
                }, empty: "")
        }
        out += counters(title: "dispatcher", status["dispatcher"])
        out += counters(title: "refused at a limit (docs/LIMITS.md)", status["refused"])
        return out.joined(separator: "\n") + "\n"
    }

    /// An object of counters as an indented `name: value` list under its title.
    static func counters(title: String, _ value: JSONValue?) -> [String] {
        guard case .object(let counters) = value ?? .null else { return [] }
        let width = counters.map(\.0.count).max() ?? 0
        return ["", title] + counters.map { "  " + pad($0.0.replacingUnderscores + ":", width + 1) + " " + text($0.1) }
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

    /// A value as a table cell: strings bare, integers without decimals.
    static func text(_ value: JSONValue?) -> String {
        switch value {
        case .none, .null?: "-"
        case .string(let s)?: s
        case .bool(let b)?: b ? "yes" : "no"
        case .number(let n)?: n.rounded() == n && abs(n) < 1e15 ? "\(Int(n))" : "\(n)"
        case let other?: other.text
        }
    }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds)
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? "\(h)h \(m)m \(s)s" : m > 0 ? "\(m)m \(s)s" : "\(s)s"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}

/// One event-stream line for `gesturectl monitor` without `--json`.
public enum MonitorText {
    /// `  2.123  panel/scroll  pan changed  x=10.0 y=-2.3 touches=2 ...`, or for a trace
    /// record the transition log line, for a contact its touch line, for the stream's last
    /// line `gestured is stopping (SIGTERM)`.
    public static func render(_ line: JSONValue) -> String {
        let t = line["t"]?.doubleValue.map(seconds) ?? "-"
        if line["stopping"] == .bool(true) { return pad(t) + "  gestured is stopping (\(StatusText.text(line["reason"])))" }
        if let from = line["from"]?.stringValue {
            return pad(t) + "  "
                + TraceLine.format(
                    view: line["view"]?.stringValue ?? "?", gesture: line["gesture"]?.stringValue ?? "?",
                    from: from, to: line["to"]?.stringValue ?? "?", reason: line["reason"]?.stringValue ?? "")
        }
        if let touch = line["touch"] {
            // `  1.234  touch 3 began  x=410.5 y=220 (108.6 58.2 mm) view=map device=0`
            return pad(t) + "  touch \(StatusText.text(touch)) \(StatusText.text(line["phase"]))  x=\(StatusText.text(line["x"])) "
                + "y=\(StatusText.text(line["y"])) (\(StatusText.text(line["x_mm"])) \(StatusText.text(line["y_mm"])) mm) "
                + "view=\(line["view"]?.stringValue ?? "none") device=\(StatusText.text(line["device"]))"
        }
        guard case .object(let members) = line else { return line.text }
        let head = ["t", "gesture", "type", "state", "view"]
        let rest = members.filter { !head.contains($0.0) }.map { "\($0.0)=\(StatusText.text($0.1))" }
        return pad(t) + "  \(StatusText.text(line["view"]))/\(StatusText.text(line["gesture"])) \(StatusText.text(line["type"])) "
            + "\(StatusText.text(line["state"]))  " + rest.joined(separator: " ")
    }

    private static func seconds(_ value: Double) -> String {
        var bytes: [UInt8] = []
        return TextNumber.appendFixed(value, decimals: 3, to: &bytes) ? String(decoding: bytes, as: UTF8.self) : "-"
    }

    private static func pad(_ t: String) -> String { String(repeating: " ", count: max(0, 9 - t.count)) + t }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
    fileprivate var trimmedRight: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
