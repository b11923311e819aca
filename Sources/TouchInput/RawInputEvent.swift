/// One evdev event (`struct input_event`) with its kernel timestamp in microseconds.
///
/// Live devices stamp events on CLOCK_MONOTONIC; recordings are rebased to their first event.
public struct RawInputEvent: Equatable, Sendable, CustomStringConvertible {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    /// Microseconds.
    public var time: Int64

    public init(type: UInt16, code: UInt16, value: Int32, time: Int64) {
        self.type = type
        self.code = code
        self.value = value
        self.time = time
    }

    /// `TIME TYPE_NAME CODE_NAME VALUE`, as `evemu-record`'s comments name them.
    public var description: String {
        "\(formatMicroseconds(time)) \(InputCodes.typeName(type)) \(InputCodes.codeName(type: type, code: code)) \(value)"
    }

    /// The size of `struct input_event` on a 64-bit kernel: a 16-byte timeval, then type,
    /// code, value.
    public static let recordSize = 24

    /// Appends the event as the `struct input_event` a device node gives (native byte order).
    public func append(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: time / 1_000_000) { bytes += $0 }
        withUnsafeBytes(of: time % 1_000_000) { bytes += $0 }
        withUnsafeBytes(of: type) { bytes += $0 }
        withUnsafeBytes(of: code) { bytes += $0 }
        withUnsafeBytes(of: value) { bytes += $0 }
    }
}

/// `seconds.micros` with six digits, as evemu writes times.
func formatMicroseconds(_ time: Int64) -> String {
    let sign = time < 0 ? "-" : ""
    let magnitude = time.magnitude
    let micros = String(magnitude % 1_000_000)
    return "\(sign)\(magnitude / 1_000_000)." + String(repeating: "0", count: 6 - micros.count) + micros
}
