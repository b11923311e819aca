import GestureCore
import JSONOutput

extension EventJSON {
    /// One change of what the application sees of a touch (`gesturectl replay --delivery`):
    /// `t`, `touch` (its id), `delivery` (`began`, `moved`, `ended`, `cancelled`), `delay`
    /// (seconds it was held back), `view` (its hit view; null for a contact the engine could
    /// not track and passed as is), `x`, `y` (screen px), `device`.
    public static func touchLine(
        _ change: TouchChange, names: GestureNames, origin: Microseconds,
        into writer: inout JSONWriter
    ) {
        writer.reset()
        writer.beginObject()
        writer.key("t")
        writer.fixed(Double(change.time - origin) / 1_000_000, decimals: 3)
        writer.key("touch")
        writer.int(Int64(change.id))
        writer.key("delivery")
        writer.string(change.kind.description)
        writer.key("delay")
        writer.fixed(Double(change.delay) / 1_000_000, decimals: 3)
        writer.key("view")
        if change.view >= 0 { writer.string(names.view(change.view)) } else { writer.null() }
        writer.key("x")
        writer.fixed(change.x, decimals: 1)
        writer.key("y")
        writer.fixed(change.y, decimals: 1)
        writer.key("device")
        writer.int(Int64(change.device.rawValue))
        writer.endObject()
        writer.newline()
    }
}
