/// One entry in journald's native protocol (systemd.io/JOURNAL_NATIVE_PROTOCOL): each field
/// `KEY=value\n`, or for a value holding a newline `KEY\n`, its length as a 64-bit little
/// endian integer, the value and `\n`. One datagram carries one entry.
public struct JournalEntry: Sendable {
    /// The largest entry sent as one datagram. Larger ones (a message of tens of
    /// kilobytes) go to stderr as text instead, which journald also stores: a datagram
    /// that big may not fit the socket's buffer, and journald's memfd passing is not
    /// worth its code for messages gestured bounds itself (docs/LIMITS.md).
    public static let maximumBytes = 64 * 1024

    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    /// Appends one field (a name journald accepts: `JournalField.isFieldName`).
    public mutating func append(_ name: String, _ value: String) { fields.append((name, value)) }

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        for (name, value) in fields {
            out += name.utf8
            if value.utf8.contains(UInt8(ascii: "\n")) {
                out.append(UInt8(ascii: "\n"))
                var length = UInt64(value.utf8.count).littleEndian
                withUnsafeBytes(of: &length) { out += $0 }
            } else {
                out.append(UInt8(ascii: "="))
            }
            out += value.utf8
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

}
