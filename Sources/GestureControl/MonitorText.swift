import JSONOutput

/// One event-stream line for `gesturectl monitor` without `--json`.
public enum MonitorText {
    /// `  2.123  panel/scroll  pan changed  x=10.0 y=-2.3 touches=2 ...`, or for a trace
    /// record the transition log line, for a contact its touch line (a filtered one with
    /// the health rule that filtered it), for a panel's health change its state and reason,
    /// for the stream's last line `gestured is stopping (SIGTERM)`.
    public static func render(_ line: JSONValue) -> String {
        let t = line["t"]?.doubleValue.map(seconds) ?? "-"
        if line["stopping"] == .bool(true) { return pad(t) + "  gestured is stopping (\(text(line["reason"])))" }
        if let from = line["from"]?.stringValue {
            return pad(t) + "  "
                + TraceLine.format(
                    view: line["view"]?.stringValue ?? "?", gesture: line["gesture"]?.stringValue ?? "?",
                    from: from, to: line["to"]?.stringValue ?? "?", reason: line["reason"]?.stringValue ?? "")
        }
        if let touch = line["touch"] {
            // `  1.234  touch 3 began  x=410.5 y=220 (108.6 58.2 mm) view=map device=0`
            return pad(t) + "  touch \(text(touch)) \(text(line["phase"]))  x=\(text(line["x"])) "
                + "y=\(text(line["y"])) (\(text(line["x_mm"])) \(text(line["y_mm"])) mm) "
                + "view=\(line["view"]?.stringValue ?? "none") device=\(text(line["device"]))"
        }
        if let id = line["filtered"] {
            // `  1.234  touch 7 filtered: ghost, never shown  x=410.5 y=220 device=0`
            let shown = line["shown"] == .bool(true) ? "shown, then cancelled" : "never shown"
            return pad(t) + "  touch \(text(id)) filtered: \(text(line["rule"])), \(shown)  x=\(text(line["x"])) "
                + "y=\(text(line["y"])) device=\(text(line["device"]))"
        }
        if let health = line["health"] {
            return pad(t) + "  device \(text(line["device"])) health \(text(health)): \(text(line["reason"]))"
        }
        guard case .object(let members) = line else { return line.text }
        let head = ["t", "gesture", "type", "state", "view"]
        let rest = members.filter { !head.contains($0.0) }.map { "\($0.0)=\(text($0.1))" }
        return pad(t) + "  \(text(line["view"]))/\(text(line["gesture"])) \(text(line["type"])) "
            + "\(text(line["state"]))  " + rest.joined(separator: " ")
    }

    /// A value as a table cell: strings bare, integers without decimals.
    private static func text(_ value: JSONValue?) -> String {
        switch value {
        case .none, .null?: "-"
        case .string(let s)?: s
        case .bool(let b)?: b ? "yes" : "no"
        case .number(let n)?: StatusText.number(n)
        case let other?: other.text
        }
    }

    private static func seconds(_ value: Double) -> String {
        var bytes: [UInt8] = []
        return TextNumber.appendFixed(value, decimals: 3, to: &bytes) ? String(decoding: bytes, as: UTF8.self) : "-"
    }

    private static func pad(_ t: String) -> String { String(repeating: " ", count: max(0, 9 - t.count)) + t }
}

/// The human transition log, the same everywhere: `[view/gesture] old -> new (reason)`.
public enum TraceLine {
    /// The line for one transition; the reason in parentheses when there is one.
    public static func format(view: String, gesture: String, from: String, to: String, reason: String) -> String {
        reason.isEmpty ? "[\(view)/\(gesture)] \(from) -> \(to)" : "[\(view)/\(gesture)] \(from) -> \(to) (\(reason))"
    }
}
