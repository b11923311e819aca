import DaemonTestSupport
import GestureConfig
import GestureControl
import GestureCore
import Logging
import TestSupport
import Testing

@testable import GestureDaemon
@testable import SystemLoop

/// The daemon's keyboard in `status`: listed with the config's keys whether or not
/// /dev/uinput could be opened (this machine's tests run without it; the real-kernel tier
/// makes it), gone with a config that has no `keys` actions.
@Suite struct KeyboardStatusTests {
    @Test func statusListsTheKeyboardAndWhyItIsMissing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let press = ActionSpec(kind: .keys(KeyAction(chord: [29, 19])))
        let configuration = try makeConfiguration([("reload", .swipe, [.recognized: [press]])])
        let options = DaemonOptions(configPath: dir.file("none.toml"), socketPath: dir.file("ctl.sock"))
        let daemon = try Daemon(
            options: options, configuration: configuration, environment: [:], logger: Logger(label: "test"),
            clock: .manual(ManualClock()), adoptsOrphans: false)
        defer { daemon.server.close() }
        let keyboard = try #require(daemon.statusValue().keyboard)
        #expect(keyboard.name == "gestured keyboard")
        #expect(keyboard.keys == ["KEY_R", "KEY_LEFTCTRL"])
        #expect(keyboard.down.isEmpty)
        if let path = keyboard.path {
            #expect(path.hasPrefix("/dev/input/event") && keyboard.error == nil)
        } else {
            #expect(keyboard.error?.contains("/dev/uinput") == true, "\(keyboard.error ?? "no error")")
        }
        let text = StatusText.render(daemon.statusValue())
        #expect(text.contains("keyboard: gestured keyboard ("))
        #expect(text.contains("), keys KEY_R KEY_LEFTCTRL"))

        try daemon.dispatcher.reconfigure(try makeConfiguration([("reload", .swipe, [:])]))
        #expect(daemon.statusValue().keyboard == nil)
    }
}
