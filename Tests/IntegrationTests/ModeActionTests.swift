import GestureControl
import LinuxSystem
import TestSupport
import Testing

/// An action that switches modes, in the real daemon: the tap's `mode = "quiet"` with
/// `for` switches the running daemon's mode (status, the subscriber's line), which turns
/// the drag off until it ends.
@Suite struct ModeActionTests {
    @Test func aTapsActionSwitchesTheDaemonsMode() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let text = TestConfig.tapAndPan(tapActions: ["mode = \"quiet\"\nfor = \"600s\""]) + "[mode.quiet]\ngestures = { drag = false }\n"
        try writeText(text, to: config)

        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let subscriber = try daemon.client()
        _ = try subscriber.request(.subscribe)
        #expect(try daemon.status().runtime.mode == nil)
        _ = try daemon.request(.replayStart)

        var modeLine: JSONValue?
        while modeLine == nil, let line = try subscriber.readLine() {
            let value = try JSONParser.parse(line)
            if value.kind == .mode { modeLine = value }
        }
        #expect(modeLine?["mode"] == .string("quiet"))
        #expect(modeLine?["cause"] == .string("switched"))
        #expect(modeLine?["by"]?.stringValue?.contains("tap") == true, "\(String(describing: modeLine))")
        let status = try daemon.status()
        #expect(status.runtime.mode?.name == "quiet", "\(status)")
        #expect(status.gestures.first { $0.name == "drag" }?.enabled == false)
    }

    /// `gesturectl trigger` runs the tap's actions, its mode switch included: the reply
    /// names the mode, the subscriber gets the tap's line, then the mode line (the stream's
    /// order), and the action's command sees the mode in force when the tap happened.
    @Test func triggerSwitchesTheModeAsARecognitionWould() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let log = dir.file("actions.log")
        let text =
            TestConfig.tapAndPan(tapActions: ["mode = \"quiet\"\nfor = \"600s\"", "command = 'echo \"$GESTURE_MODE\" >> \(log)'"])
            + "[mode.quiet]\ngestures = { drag = false }\n"
        try writeText(text, to: config)

        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let subscriber = try daemon.client()
        _ = try subscriber.request(.subscribe)
        let reply = try daemon.client().request(.trigger, [("gesture", .string("tap"))])
        #expect(reply["mode"] == .string("quiet"), "\(reply)")
        var lines: [JSONValue] = []
        while let line = try subscriber.readLine() {
            lines.append(try JSONParser.parse(line))
            if lines.last?["mode"] == .string("quiet") { break }
        }
        let tapLine = lines.firstIndex { $0["gesture"] == .string("tap") }
        #expect(tapLine != nil && tapLine! < lines.count - 1, "\(lines)")
        #expect(try daemon.status().runtime.mode?.name == "quiet")
        #expect(eventually { readText(log) == "none\n" })
        let run = try ChildProcess.run(Binary.gesturectl, arguments: ["trigger", "tap", "--socket", daemon.socket])
        #expect(run.output == "tap recognized: 2 actions started\nmode: quiet\n")
    }
}
