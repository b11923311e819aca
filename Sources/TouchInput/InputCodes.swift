import CEvdev

/// The evdev types and codes the input layer interprets, as `UInt16` (the C macros import as
/// `Int32`), plus libevdev's name tables.
public enum InputCodes {
    public static let evSyn = UInt16(EV_SYN)
    public static let evKey = UInt16(EV_KEY)
    public static let evAbs = UInt16(EV_ABS)

    public static let synReport = UInt16(SYN_REPORT)
    public static let synConfig = UInt16(SYN_CONFIG)
    public static let synMTReport = UInt16(SYN_MT_REPORT)
    public static let synDropped = UInt16(SYN_DROPPED)

    public static let btnTouch = UInt16(BTN_TOUCH)
    public static let btnToolFinger = UInt16(BTN_TOOL_FINGER)
    public static let btnToolPen = UInt16(BTN_TOOL_PEN)
    public static let btnStylus = UInt16(BTN_STYLUS)
    public static let btnLeft = UInt16(BTN_LEFT)

    public static let absX = UInt16(ABS_X)
    public static let absY = UInt16(ABS_Y)
    public static let absMTSlot = UInt16(ABS_MT_SLOT)
    public static let absMTTouchMajor = UInt16(ABS_MT_TOUCH_MAJOR)
    public static let absMTPositionX = UInt16(ABS_MT_POSITION_X)
    public static let absMTPositionY = UInt16(ABS_MT_POSITION_Y)
    public static let absMTToolType = UInt16(ABS_MT_TOOL_TYPE)
    public static let absMTTrackingID = UInt16(ABS_MT_TRACKING_ID)
    public static let absMTPressure = UInt16(ABS_MT_PRESSURE)

    public static let propDirect = UInt16(INPUT_PROP_DIRECT)
    public static let propMax = UInt16(INPUT_PROP_MAX)
    public static let evMax = UInt16(EV_MAX)

    /// The highest code of `type`, or nil when libevdev knows no such type (or it has no codes).
    public static func maximumCode(ofType type: UInt16) -> UInt16? {
        let max = libevdev_event_type_get_max(UInt32(type))
        return max >= 0 ? UInt16(max) : nil
    }

    /// `EV_ABS`, or `EV_0x1f` for a type without a name.
    public static func typeName(_ type: UInt16) -> String {
        if let name = libevdev_event_type_get_name(UInt32(type)) { return String(cString: name) }
        return "EV_0x" + hex(type)
    }

    /// `ABS_MT_SLOT`, or `ABS_0x3e` for an in-range code without a name.
    public static func codeName(type: UInt16, code: UInt16) -> String {
        if let name = libevdev_event_code_get_name(UInt32(type), UInt32(code)) { return String(cString: name) }
        var prefix = typeName(type)
        if prefix.hasPrefix("EV_") { prefix.removeFirst(3) }
        return prefix + "_0x" + hex(code)
    }

    /// Lower-case hex, at least two digits (`0a`, `3e`, `14a`).
    static func hex(_ value: UInt16) -> String { padded(String(value, radix: 16), to: 2) }

    /// Lower-case hex, four digits (`0eef`), as evemu writes ids, types and codes.
    static func hex4(_ value: UInt16) -> String { padded(String(value, radix: 16), to: 4) }

    private static func padded(_ digits: String, to width: Int) -> String {
        String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
