import GestureCore
import JSONOutput

/// One line per `TouchFrame`, for `gesturectl touches` and debugging output.
public enum FrameFormatter {
    /// `0.008818  #0 began slot 0 (810, 1650) [0.506, 0.645] pressure 215`; contacts separated by `; `.
    public static func text(_ frame: TouchFrame) -> String {
        var line = formatMicroseconds(frame.time)
        var first = true
        for contact in frame.contacts {
            line += first ? "  " : "; "
            first = false
            line += "#\(contact.id) \(contact.phase) slot \(contact.slot) (\(contact.x), \(contact.y)) "
            line += "[\(JSONText.fixed(contact.normalizedX, decimals: 3)), \(JSONText.fixed(contact.normalizedY, decimals: 3))]"
            if let pressure = contact.pressure { line += " pressure \(pressure)" }
            if let major = contact.touchMajor { line += " major \(major)" }
            if contact.toolType != .finger { line += " \(contact.toolType)" }
        }
        return line
    }

    /// `{"time":8818,"touches":[{"id":0,"slot":0,"phase":"began","x":810,"y":1650,"nx":0.506,...}]}`;
    /// time in microseconds.
    public static func json(_ frame: TouchFrame) -> String {
        var line = "{\"time\":\(frame.time),\"touches\":["
        for (index, contact) in frame.contacts.enumerated() {
            if index > 0 { line += "," }
            line += "{\"id\":\(contact.id),\"slot\":\(contact.slot),\"phase\":\"\(contact.phase)\""
            line += ",\"x\":\(contact.x),\"y\":\(contact.y)"
            line += ",\"nx\":\(JSONText.number(contact.normalizedX)),\"ny\":\(JSONText.number(contact.normalizedY))"
            if let pressure = contact.pressure { line += ",\"pressure\":\(pressure)" }
            if let major = contact.touchMajor { line += ",\"touchMajor\":\(major)" }
            line += ",\"tool\":\"\(contact.toolType)\"}"
        }
        return line + "]}"
    }
}
