import JSONOutput

/// One event-stream line for `gesturectl monitor` without `--json` (and `replay` without it).
public enum MonitorText {
    /// By the line's kind: an event `  2.123  panel/scroll  pan changed  x=10.0 y=-2.3
    /// touches=2 ...`, a trace record the transition log line, a contact its touch line (a
    /// filtered one with the health rule that filtered it), a panel's health change its
    /// state and reason, a runtime change its members (`mode=quiet from=null ...`), the
    /// stream's last line `gestured is stopping (SIGTERM)`.
    public static func render(_ line: EventLine) -> String {
        let t = pad(line.t.map(seconds) ?? "-")
        switch line.kind {
        case .stopping:
            return t + "  gestured is stopping (\(text(line["reason"])))"
        case .trace:
            return t + "  "
                + TraceLine.format(
                    view: line["view"]?.stringValue ?? "?", gesture: line["gesture"]?.stringValue ?? "?",
                    from: line["from"]?.stringValue ?? "?", to: line["to"]?.stringValue ?? "?",
                    reason: line["reason"]?.stringValue ?? "")
        case .contact:
            // `  1.234  touch 3 began  x=410.5 y=220 (108.6 58.2 mm) view=map device=0`
            return t + "  touch \(text(line["touch"])) \(text(line["phase"]))  x=\(text(line["x"])) "
                + "y=\(text(line["y"])) (\(text(line["x_mm"])) \(text(line["y_mm"])) mm) "
                + "view=\(line["view"]?.stringValue ?? "none") device=\(text(line["device"]))"
        case .filtered:
            // `  1.234  touch 7 filtered: ghost, never shown  x=410.5 y=220 device=0`
            let shown = line["shown"] == .bool(true) ? "shown, then cancelled" : "never shown"
            return t + "  touch \(text(line["filtered"])) filtered: \(text(line["rule"])), \(shown)  x=\(text(line["x"])) "
                + "y=\(text(line["y"])) device=\(text(line["device"]))"
        case .health:
            return t + "  device \(text(line["device"])) health \(text(line["health"])): \(text(line["reason"]))"
        case .idle:
            // `  300.000  idle (timeout)`, `  412.310  active (touch) device=0`
            let device = line["device"].map { " device=\(text($0))" } ?? ""
            return t + "  \(text(line["idle"])) (\(text(line["cause"])))" + device
        case .mode, .changed, .dropped:
            // `   12.500  mode=maintenance from=null until=72.500000 cause=switched by=script`
            return t + "  " + members(of: line, except: ["t"]) { $0.stringValue ?? $0.text }
        case .event, .applicationTouch:
            let head = ["t", "gesture", "type", "state", "view"]
            return t + "  \(text(line["view"]))/\(text(line["gesture"])) \(text(line["type"])) "
                + "\(text(line["state"]))  " + members(of: line, except: head, text)
        }
    }

    /// `key=value` for each member but `except`, in order.
    private static func members(of line: EventLine, except: [String], _ format: (JSONValue) -> String) -> String {
        guard case .object(let members) = line.value else { return "" }
        return members.filter { !except.contains($0.0) }.map { "\($0.0)=\(format($0.1))" }.joined(separator: " ")
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
