import GestureCore
import JSONOutput

extension EventJSON {
    /// A contact line of the event stream (subscribers that asked for touches):
    /// `{"t", "touch", "device", "phase", "x", "y", "x_mm", "y_mm", "view"}`, positions with
    /// 1 decimal, `view` null when the contact hit no view.
    public static func touchLine(_ touch: TouchReport, origin: Microseconds, view: String?, into writer: inout JSONWriter) {
        writer.reset()
        writer.beginObject()
        writer.key("t")
        writer.fixed(Double(touch.time - origin) / 1_000_000, decimals: 3)
        writer.key("touch")
        writer.int(Int64(touch.id))
        writer.key("device")
        writer.int(Int64(touch.device.rawValue))
        writer.key("phase")
        writer.string(touch.phase.description)
        writer.key("x")
        writer.fixed(touch.x, decimals: 1)
        writer.key("y")
        writer.fixed(touch.y, decimals: 1)
        writer.key("x_mm")
        writer.fixed(touch.mmX, decimals: 1)
        writer.key("y_mm")
        writer.fixed(touch.mmY, decimals: 1)
        writer.key("view")
        if let view { writer.string(view) } else { writer.null() }
        writer.endObject()
        writer.newline()
    }
}
