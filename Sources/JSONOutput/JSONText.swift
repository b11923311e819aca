/// JSON pieces as `String`s, for the one-line outputs that are built by concatenation
/// (`gesturectl devices`, `touches`): `JSONWriter`'s escaping and `TextNumber`'s digits.
public enum JSONText {
    /// `"text"` with JSON escapes.
    public static func string(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A number with at most six decimals; JSON has no NaN or infinity, so those are null.
    public static func number(_ value: Double) -> String { fixed(value, decimals: 6) }

    /// `value` with up to `decimals` decimals, trailing zeros removed (`0.125`, `1`, `-0.5`);
    /// null when not finite, and Swift's own text when too large for fixed-point digits.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var bytes: [UInt8] = []
        guard TextNumber.appendFixed(value, decimals: decimals, trimmingZeros: true, to: &bytes) else {
            return String(describing: value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
