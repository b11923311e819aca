import GestureCore
import JSONOutput

extension IdleChange.Cause {
    /// `timeout`, `touch` or `reload`, as the idle line says it.
    public var word: String {
        switch self {
        case .timeout: "timeout"
        case .touch: "touch"
        case .reload: "reload"
        }
    }
}

extension EventJSON {
    /// The idle line subscribers get (docs/PROTOCOL.md): `{"t":300.000,"idle":"idle","cause":"timeout"}`,
    /// `{"t":412.310,"idle":"active","cause":"touch","device":0}`.
    public static func idleLine(_ change: IdleChange, origin: Microseconds, into writer: inout JSONWriter) {
        writer.reset()
        writer.beginObject()
        writer.key("t")
        writer.fixed(Double(change.time - origin) / 1_000_000, decimals: 3)
        writer.key("idle")
        writer.string(change.state)
        writer.key("cause")
        writer.string(change.cause.word)
        if case .touch(let device) = change.cause {
            writer.key("device")
            writer.int(Int64(device.rawValue))
        }
        writer.endObject()
        writer.newline()
    }
}
