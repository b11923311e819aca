import CEvdev

/// Key names as evdev spells them (`KEY_F5`), from libevdev's own table of the kernel's
/// input-event-codes.h: what `keys = "..."` actions accept. Case-insensitive, `KEY_` may be
/// left out (`f5`, `leftctrl`); `ctrl`, `shift`, `alt` and `super` stand for the left ones.
/// Buttons (`BTN_*`) are not keys: gestured has no pointer device (docs/CONFIG.md says why).
public enum KeyNames {
    /// The short spellings of the left modifiers, as chords in other tools write them.
    static let modifierAliases = ["ctrl": "LEFTCTRL", "shift": "LEFTSHIFT", "alt": "LEFTALT", "super": "LEFTMETA"]

    /// The code of `name`, or nil when it names no key.
    public static func code(of name: String) -> UInt16? {
        var upper = modifierAliases[name.lowercased()] ?? name.uppercased()
        if !upper.hasPrefix("KEY_") { upper = "KEY_" + upper }
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), upper)
        guard code > 0, isKey(Int32(code)) else { return nil }
        return UInt16(code)
    }

    /// `name` as the suggestions spell it: lower-case, without `KEY_`.
    static func shortName(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasPrefix("key_") ? String(lower.dropFirst(4)) : lower
    }

    /// The canonical name of `code` (`KEY_F5`): libevdev's first name for it.
    public static func name(of code: UInt16) -> String {
        libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code)).map { String(cString: $0) } ?? "KEY_\(code)"
    }

    /// Every key code, ascending: the table the did-you-mean searches.
    public static let allCodes: [UInt16] = (1..<UInt16(KEY_MAX)).filter { isKey(Int32($0)) }

    /// The names to suggest from, lower-case and without `KEY_`, as configs write them.
    static let suggestions: [String] = allCodes.map { String(name(of: $0).dropFirst(4)).lowercased() }

    /// A key, not a button: libevdev names the pointer, joystick and gamepad codes `BTN_*`;
    /// `KEY_MAX` is a bound, not a key.
    static func isKey(_ code: Int32) -> Bool {
        guard code > 0, code < KEY_MAX, let name = libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code)) else { return false }
        return String(cString: name).hasPrefix("KEY_")
    }
}

extension KeyAction {
    /// The chord as the config may write it: `KEY_LEFTCTRL+KEY_R`.
    public static func text(of chord: [UInt16]) -> String { chord.map(KeyNames.name(of:)).joined(separator: "+") }
}
