import CEvdev
import GestureConfig
import Testing

/// `keys = "..."` actions: names from libevdev's table, chords, hold and step modes, errors.
@Suite struct KeyActionConfigTests {
    static let head =
        Fixture.screen + """
            [gesture.reload]
            type = "swipe"
            directions = ["down"]
            [gesture.drag]
            type = "pan"
            [gesture.zoom]
            type = "pinch"
            [gesture.turn]
            type = "rotation"

            """

    /// Every key libevdev names resolves to its code, spelt as evdev does (`KEY_F5`), in
    /// lower case without `KEY_` (`f5`), and in mixed case.
    @Test func everyKeyNameResolves() {
        #expect(KeyNames.allCodes.count > 400)
        for code in KeyNames.allCodes {
            let name = KeyNames.name(of: code)
            #expect(name.hasPrefix("KEY_"))
            #expect(KeyNames.code(of: name) == code, "\(name)")
            #expect(KeyNames.code(of: String(name.dropFirst(4)).lowercased()) == code, "\(name)")
            #expect(KeyNames.code(of: "Key_" + String(name.dropFirst(4)).lowercased()) == code, "\(name)")
        }
        #expect(KeyNames.code(of: "f5") == UInt16(KEY_F5))
        #expect(KeyNames.code(of: "KEY_F24") == UInt16(KEY_F24))
        #expect(KeyNames.code(of: "ctrl") == UInt16(KEY_LEFTCTRL))
        #expect(KeyNames.code(of: "super") == UInt16(KEY_LEFTMETA))
        // Buttons, bounds and nothing are not keys.
        for name in ["BTN_LEFT", "btn_touch", "KEY_MAX", "KEY_RESERVED", "reserved", "", "KEY_", "f25"] {
            #expect(KeyNames.code(of: name) == nil, "\(name)")
        }
    }

    @Test func pressesHoldsAndSteps() throws {
        let text =
            Self.head + """
                [gesture.reload.on.recognized]
                keys = "leftctrl+r"
                [[gesture.drag.on.began]]
                keys = "LeftShift"
                hold = true
                [[gesture.drag.on.changed]]
                keys = "KEY_RIGHT"
                back = "left"
                step = "40px"
                [[gesture.drag.on.ended]]
                keys = "ctrl + alt + f13"
                delay = "20ms"
                cooldown = "1s"
                [gesture.zoom.on.changed]
                keys = "ctrl+equal"
                back = "ctrl+minus"
                step = 0.25
                [gesture.turn.on.changed]
                keys = "volumeup"
                back = "volumedown"
                step = "15deg"
                axis = "y"
                """
        let errors = Fixture.messages(text)
        #expect(errors == ["test.toml:34:1: error: gesture.turn.on.changed.axis: unknown key 'axis'"])
        let valid = try ConfigLoader.parse(text: String(text.dropLast("\naxis = \"y\"".count)), file: "test.toml")
        let ctrl = UInt16(KEY_LEFTCTRL)
        #expect(valid.actions[0].byState[.recognized]?.map(\.kind) == [.keys(KeyAction(chord: [ctrl, UInt16(KEY_R)]))])
        #expect(
            valid.actions[1].byState[.began]?.map(\.kind) == [.keys(KeyAction(chord: [UInt16(KEY_LEFTSHIFT)], mode: .hold))])
        #expect(
            valid.actions[1].byState[.changed]?.map(\.kind) == [
                .keys(KeyAction(chord: [UInt16(KEY_RIGHT)], mode: .step(.translationX, size: 40, back: [UInt16(KEY_LEFT)])))
            ])
        let ended = try #require(valid.actions[1].byState[.ended]?.first)
        #expect(ended.kind == .keys(KeyAction(chord: [ctrl, UInt16(KEY_LEFTALT), UInt16(KEY_F13)], mode: .press(delay: 20_000))))
        #expect(ended.cooldown == 1_000_000)
        #expect(
            valid.actions[2].byState[.changed]?.map(\.kind) == [
                .keys(KeyAction(chord: [ctrl, UInt16(KEY_EQUAL)], mode: .step(.scale, size: 0.25, back: [ctrl, UInt16(KEY_MINUS)])))
            ])
        guard case .keys(let turn)? = valid.actions[3].byState[.changed]?.first?.kind,
            case .step(.rotation, let size, _) = turn.mode
        else {
            Issue.record("the rotation's step")
            return
        }
        #expect(abs(size - 15 * .pi / 180) < 1e-12)
        let report = ConfigReport.text(of: valid)
        #expect(report.contains("    on.recognized: keys KEY_LEFTCTRL+KEY_R\n"))
        #expect(report.contains("    on.began: keys KEY_LEFTSHIFT held until the gesture ends\n"))
        #expect(report.contains("    on.changed: keys KEY_RIGHT each step of 40px along x up, KEY_LEFT each step down\n"))
        #expect(report.contains("    on.ended: keys KEY_LEFTCTRL+KEY_LEFTALT+KEY_F13 (up after 20ms), cooldown 1s\n"))
        #expect(
            report.contains(
                "keyboard: \"gestured keyboard\" (uinput) sends KEY_MINUS KEY_EQUAL KEY_R KEY_LEFTCTRL KEY_LEFTSHIFT KEY_LEFTALT "
                    + "KEY_LEFT KEY_RIGHT KEY_VOLUMEDOWN KEY_VOLUMEUP KEY_F13"))
    }

    @Test func badKeysAreExplained() {
        let text =
            Self.head + """
                [[gesture.reload.on.recognized]]
                keys = "leftctl+r"
                [[gesture.reload.on.recognized]]
                keys = "BTN_RIGHT"
                [[gesture.reload.on.recognized]]
                keys = "ctrl++r"
                [[gesture.reload.on.recognized]]
                keys = "a+b+c+d+e+f+g+h+i"
                [[gesture.reload.on.recognized]]
                keys = "r+R"
                [[gesture.reload.on.recognized]]
                keys = "f5"
                hold = true
                [[gesture.reload.on.recognized]]
                keys = "f5"
                command = "true"
                [[gesture.drag.on.began]]
                keys = "f5"
                back = "f6"
                step = 10
                [[gesture.drag.on.changed]]
                keys = "f5"
                step = 10
                [[gesture.drag.on.changed]]
                keys = "f5"
                back = "f6"
                step = 0
                axis = "z"
                [[gesture.zoom.on.changed]]
                keys = "f5"
                back = "f6"
                step = 0.25
                delay = "5s"
                [[gesture.zoom.on.began]]
                keys = "f5"
                hold = true
                back = "f6"
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:14:1: error: gesture.reload.on.recognized[0].keys: unknown key 'leftctl': expected evdev key names joined by '+', such as \"f5\", \"KEY_F5\" or \"leftctrl+r\" (did you mean 'leftctrl'?)",
                "test.toml:16:1: error: gesture.reload.on.recognized[1].keys: 'BTN_RIGHT' is a button: gestured sends keys only: expected evdev key names joined by '+', such as \"f5\", \"KEY_F5\" or \"leftctrl+r\"",
                "test.toml:18:1: error: gesture.reload.on.recognized[2].keys: an empty key name: expected evdev key names joined by '+', such as \"f5\", \"KEY_F5\" or \"leftctrl+r\", found \"ctrl++r\"",
                "test.toml:20:1: error: gesture.reload.on.recognized[3].keys: 9 keys in one chord: expected at most 8, joined by '+'",
                "test.toml:22:1: error: gesture.reload.on.recognized[4].keys: 'R' twice in one chord: expected evdev key names joined by '+', such as \"f5\", \"KEY_F5\" or \"leftctrl+r\"",
                "test.toml:25:1: error: gesture.reload.on.recognized[5].hold: a key is held from a continuous gesture's on.began to its end: expected hold on on.began of a pan, pinch, rotation, long-press or edge-pan",
                "test.toml:28:1: error: gesture.reload.on.recognized[6].command: both 'keys' and 'command': expected exactly one of command = \"...\", socket = \"/path\", keys = \"KEY\" or mode = \"NAME\"",
                "test.toml:32:1: error: gesture.drag.on.began[0].step: steps are counted on.changed: expected step in [gesture.NAME.on.changed]",
                "test.toml:33:19: error: gesture.drag.on.changed[0]: a step action has no 'back': expected back = \"KEY\": the key sent when it steps back",
                "test.toml:40:1: error: gesture.drag.on.changed[1].axis: unknown axis 'z': expected \"x\" or \"y\"",
                "test.toml:45:1: error: gesture.zoom.on.changed[0].delay: at most 1s: a key down longer is a hold: expected a duration such as \"20ms\"",
                "test.toml:45:1: error: gesture.zoom.on.changed[0].delay: a step sends each key as a press, without 'delay'",
                "test.toml:49:1: error: gesture.zoom.on.began[0].back: both 'hold' and 'back'",
            ])
    }

    @Test func keysAreForGesturesOnly() {
        let text =
            Fixture.screen + """
                [[device]]
                name = "panel"
                [device.on.noisy]
                keys = "f5"
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:7:1: error: device[0].on.noisy.keys: keys are sent from a gesture's action only: expected command = \"...\" or socket = \"/path\""
            ])
    }
}
