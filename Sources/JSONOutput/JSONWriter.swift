/// Writes JSON into a reused byte buffer: no Foundation, and no allocation once the
/// buffer has grown to its working size. The caller is responsible for well-formedness
/// (keys inside objects, `comma` between members).
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// A writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }
    public mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// An object key; the value follows.
    public mutating func key(_ name: String) {
        separate()
        writeQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        writeQuoted(value)
        needsComma = true
    }
    public mutating func bool(_ value: Bool) {
        separate()
        appendASCII(value ? "true" : "false")
        needsComma = true
    }
    public mutating func null() {
        separate()
        appendASCII("null")
        needsComma = true
    }

    public mutating func int(_ value: Int64) {
        separate()
        TextNumber.appendInteger(value, to: &bytes)
        needsComma = true
    }

    /// A number with exactly `decimals` decimals (0...9); NaN and infinities become null.
    public mutating func fixed(_ value: Double, decimals: Int) {
        separate()
        if !TextNumber.appendFixed(value, decimals: decimals, to: &bytes) { appendASCII("null") }
        needsComma = true
    }

    /// Bytes that already are one JSON value (or text, with `clearSeparator`). Two concrete
    /// kinds, not a generic `Sequence`: a generic call from another module is not
    /// specialized and appends byte by byte through the protocol (several thousand
    /// instructions for a name, on every socket message and command's environment).
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// A string's UTF-8 that already is one JSON value (or text, with `clearSeparator`).
    public mutating func raw(_ json: String.UTF8View) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// The next value follows without a comma (for text that embeds values).
    public mutating func clearSeparator() { needsComma = false }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendASCII(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func writeQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Names and keys need no escape: one copy, not a test and an append per byte (a
        // line of the event stream is mostly keys and names).
        let copied =
            s.utf8.withContiguousStorageIfAvailable { utf8 in
                guard !utf8.contains(where: Self.needsEscape) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            } ?? false
        if !copied { writeEscaped(s) }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func writeEscaped(_ s: String) {
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0A:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "n"))
            case 0x0D:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "r"))
            case 0x09:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                appendASCII("\\u00")
                bytes.append(TextNumber.hexDigit(byte >> 4))
                bytes.append(TextNumber.hexDigit(byte & 0xF))
            default: bytes.append(byte)
            }
        }
    }
}

/// Number text without Foundation or String interpolation (which allocate).
public enum TextNumber {
    static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10 }

    /// Appends the decimal digits of `value`, with a minus sign when negative.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendUnsigned(value.magnitude, to: &bytes)
    }

    private static func appendUnsigned(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        var divisor: UInt64 = 1
        while v / divisor >= 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(v / divisor))
            v %= divisor
            divisor /= 10
        } while divisor > 0
    }

    /// Appends `value` rounded to `decimals` places (`trimmingZeros`: without the trailing
    /// zeros of the fraction, and without the point when nothing is left of it, `2`, `0.125`);
    /// false (nothing written) when it is not finite or too large for fixed-point text.
    public static func appendFixed(
        _ value: Double, decimals: Int, trimmingZeros: Bool = false,
        to bytes: inout [UInt8]
    ) -> Bool {
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard value.isFinite, scaled < 9.0e18 else { return false }
        let units = UInt64(scaled)
        if value < 0 && units != 0 { bytes.append(UInt8(ascii: "-")) }
        appendUnsigned(units / scale, to: &bytes)
        guard decimals > 0 else { return true }
        bytes.append(UInt8(ascii: "."))
        var fraction = units % scale
        var divisor = scale / 10
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
        if trimmingZeros {
            while bytes.last == UInt8(ascii: "0") { bytes.removeLast() }
            if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        }
        return true
    }
}
