import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl trigger`: the daemon runs a gesture's actions with a synthetic event, and
/// refuses names and states the config does not have.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct TriggerTests {
    @Test func runsTheActionsOfTheState() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.file("actions.log")
        let config = dir.file("gestures.toml")
        // A long press whose actions are on `began`: the default state is the first with
        // actions, not the type's last (`ended`, which a trigger without a state once ran).
        let hold =
            "[gesture.hold]\ntype = \"long-press\"\n[gesture.hold.on.began]\ncommand = 'echo \"$GESTURE_NAME $GESTURE_STATE\" >> \(log)'\n"
        // A pinch whose only action is on `changed`, paced at the display's rate: a trigger
        // runs it all the same (its one event is not a stream to pace).
        let zoom =
            "[gesture.zoom]\ntype = \"pinch\"\n[gesture.zoom.on.changed]\ncommand = 'echo \"$GESTURE_NAME $GESTURE_STATE\" >> \(log)'\n"
        try writeText(
            TestConfig.tapAndPan(
                tapActions: ["command = 'echo \"$GESTURE_NAME $GESTURE_STATE $GESTURE_X $GESTURE_Y $GESTURE_TOUCHES\" >> \(log)'"],
                panEnded: ["command = 'echo \"$GESTURE_NAME $GESTURE_STATE\" >> \(log)'"]) + hold + zoom, to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        defer { try? daemon.stop() }

        let tap = try daemon.client().request(.trigger, [("gesture", .string("tap"))])
        #expect(tap == .object([("gesture", .string("tap")), ("state", .string("recognized")), ("actions", .number(1))]))
        // The tap's view is the 800x480 screen: the event is at its centre.
        #expect(eventually { readText(log) == "tap recognized 400.0 240.0 1\n" })

        let run = try ChildProcess.run(Binary.gesturectl, arguments: ["trigger", "drag", "--socket", daemon.socket])
        #expect(run.status == 0)
        #expect(run.output == "drag ended: 1 action started\n")
        #expect(eventually { readText(log) == "tap recognized 400.0 240.0 1\ndrag ended\n" })

        // The socket before the verb, as gestured(8) writes it; a state without actions says
        // where the actions are.
        let began = try ChildProcess.run(Binary.gesturectl, arguments: ["--socket", daemon.socket, "trigger", "drag", "began"])
        #expect(began.status == 0)
        #expect(began.output == "drag began: 0 actions started\n'drag' has actions on on.ended\n")

        let press = try daemon.client().request(.trigger, [("gesture", .string("hold"))])
        #expect(press == .object([("gesture", .string("hold")), ("state", .string("began")), ("actions", .number(1))]))
        #expect(eventually { readText(log) == "tap recognized 400.0 240.0 1\ndrag ended\nhold began\n" })

        let pinch = try daemon.client().request(.trigger, [("gesture", .string("zoom"))])
        #expect(pinch == .object([("gesture", .string("zoom")), ("state", .string("changed")), ("actions", .number(1))]))
        #expect(eventually { readText(log) == "tap recognized 400.0 240.0 1\ndrag ended\nhold began\nzoom changed\n" })

        do {
            _ = try daemon.client().request(.trigger, [("gesture", .string("drag")), ("state", .string("recognized"))])
            Issue.record("a pan has no recognized state")
        } catch {
            #expect("\(error)" == "gestured: a pan gesture has no state 'recognized': use began, changed, ended, cancelled")
        }
        do {
            _ = try daemon.client().request(.trigger, [("gesture", .string("tapp"))])
            Issue.record("there is no gesture tapp")
        } catch {
            #expect("\(error)" == "gestured: no gesture 'tapp' in \(config); its gestures: tap, drag, hold, zoom")
        }
    }
}
