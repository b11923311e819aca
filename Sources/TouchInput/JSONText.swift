/// Minimal JSON text building for one-line outputs (no Foundation): string escaping and
/// number rendering.
public enum JSONText {
    /// `"text"` with JSON escapes.
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number with at most six decimals; JSON has no NaN or infinity, so those are null.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return fixed(value, decimals: 6)
    }

    /// `value` with up to `decimals` decimals, trailing zeros removed (`0.125`, `1`, `-0.5`).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.magnitude < 9e15 else { return String(describing: value) }
        let units = Int64(scaled)
        let whole = units.magnitude / UInt64(scale)
        var fraction = String(units.magnitude % UInt64(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let sign = units < 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
