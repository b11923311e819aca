import GestureControl
import LinuxSystem
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `gestured` on real recordings (`--replay`), checked against its offline twin
/// `gesturectl replay --json` on the same config.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct DaemonReplayTests {
    @Test func commandsSocketMessagesSubscribersAndStatus() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let app = try DatagramReceiver(path: dir.file("app.sock"))
        let config = dir.file("gestures.toml")
        let log = dir.file("commands.log")
        try writeText(
            TestConfig.tapAndPan(tapActions: [
                "command = 'echo \"$GESTURE_NAME $GESTURE_TYPE $GESTURE_STATE $GESTURE_TOUCHES $GESTURE_X $GESTURE_Y $TEST_MARK\" >> \(log)'",
                "socket = \"\(dir.file("app.sock"))\"\ndatagram = true\nmessage = \"{gesture} {state} {x} {y}\"",
            ]), to: config)
        let expected = try replayJSON(config: config, recording: Recording.taps, dir: dir)
        try #require(!expected.isEmpty && expected.allSatisfy { $0["gesture"] == .string("tap") })

        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let subscriber = try daemon.client()
        _ = try subscriber.request(.subscribe)
        let tracer = try daemon.client()
        #expect(try tracer.request(.subscribe, [("trace", .bool(true))])["trace"] == .bool(true))
        let started = try daemon.request(.replayStart)
        #expect(started["events"]?.intValue ?? 0 > 0)

        // The stream: the replay's events with the same fields in the same order; `t` runs on.
        let streamed = try readEvents(subscriber, count: expected.count)
        #expect(streamed.map(\.withoutTime) == expected.map(\.withoutTime))
        let times = streamed.compactMap { $0["t"]?.doubleValue }
        #expect(times.count == streamed.count && times == times.sorted())
        // The trace subscriber gets the transitions too, and the same events.
        var traced: [JSONValue] = []
        while traced.count(where: { $0.kind == .event }) < expected.count, let line = try tracer.readLine() {
            traced.append(try JSONParser.parse(line))
        }
        #expect(traced.filter { $0.kind == .event }.map(\.withoutTime) == expected.map(\.withoutTime))
        #expect(traced.contains { $0["gesture"] == .string("drag") && $0["to"] == .string("failed") })

        // Commands: one per recognition, with the event's values and [daemon.environment].
        #expect(eventually { (readText(log) ?? "").split(separator: "\n").count == expected.count }, "\(daemon.log)")
        let commandLines = (readText(log) ?? "").split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(commandLines.allSatisfy { $0.count == 7 && $0[0...3] == ["tap", "tap", "recognized", "1"] && $0[6] == "from-config" })
        #expect(positions(commandLines.map { ($0[4], $0[5]) }) == positions(expected))
        // Socket messages: the template filled in, one datagram per recognition, each a line.
        #expect(
            eventually {
                app.receiveAll()
                return app.messages.count == expected.count
            })
        #expect(app.messages.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().allSatisfy { $0 != "\n" } })
        let words = app.messages.map { $0.dropLast().split(separator: " ").map(String.init) }
        #expect(words.allSatisfy { $0.count == 4 && $0[0] == "tap" && $0[1] == "recognized" })
        #expect(positions(words.map { ($0[2], $0[3]) }) == positions(expected))

        // Status: device, gestures with counts, dispatcher counters, subscribers; no child left.
        #expect(eventually { (try? daemon.status().replay?.state) == "finished" })
        #expect(eventually { (try? daemon.status().dispatcher[DispatcherMetrics.runningChildren]) == 0 })
        let status = try daemon.status()
        let device = try #require(status.devices.first)
        #expect(device.path == Recording.taps && device.values[DeviceMetrics.contacts] == 0)
        #expect(device.name.contains("Atmel"))
        let tap = status.gestures.first { $0.name == "tap" }
        #expect(tap?.values[GestureMetrics.count] == Double(expected.count) && tap?.state == "possible")
        let dispatcher = status.dispatcher
        #expect(dispatcher[DispatcherMetrics.commandsStarted] == Double(expected.count))
        #expect(dispatcher[DispatcherMetrics.commandsFailed] == 0 && dispatcher[DispatcherMetrics.commandsRefused] == 0)
        #expect(dispatcher[DispatcherMetrics.socketMessagesSent] == Double(expected.count))
        #expect(status.control.values[ControlMetrics.subscribers] == 2)
        #expect(status.views.first?.frame == [0, 0, 800, 480])
        #expect(daemon.children().isEmpty, "children left: \(daemon.children())")

        // gesturectl renders the same status as tables.
        let text = try runTool(Binary.gesturectl, ["status", "--socket", daemon.socket], dir: dir)
        #expect(text.status == 0)
        #expect(text.stdout.contains("commands started:") && text.stdout.contains("tap"), "\(text.stdout)\(text.stderr)")
        try daemon.stop()
    }

    /// The shipped config, its commands made harmless, with a mode the zoom's end switches
    /// to for a second, which turns the pan off: runtime lines among the events.
    static var shippedWithAMode: String {
        let shipped = readText(TestConfig.shippedPath) ?? ""
        let harmless = shipped.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasPrefix("command = ") ? "command = \"true\"" : String($0)
        }
        return harmless.joined(separator: "\n")
            + "\n[[gesture.map_zoom.on.ended]]\nmode = \"still\"\nfor = \"1s\"\n\n[mode.still]\ngestures = { map_pan = false }\n"
    }

    /// The daemon's subscribers get the lines `gesturectl replay --json` prints, in the same
    /// order (docs/SEMANTICS.md, "The output stream"): events, the mode the zoom's end
    /// switched to after it, the pan that switch cancelled, the mode's end.
    @Test(arguments: [
        "atmel-maxtouch-2-finger-tap.evemu", "ep0430m09-2-finger-scroll-down.evemu", "ep0430m09-4-finger-drag-down.evemu",
        "atmel-maxtouch-1-finger-drag-up-down.evemu", "google-pixel-tablet-nvt-1-finger-swipe.evemu",
    ])
    func subscribersGetTheLinesReplayPrintsInItsOrder(recording: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(Self.shippedWithAMode, to: config)
        let path = SharedRecordings.path(recording)
        let expected = try replayJSON(config: config, recording: path, dir: dir)
        try #require(!expected.isEmpty)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: path)
        let subscriber = try daemon.client()
        _ = try subscriber.request(.subscribe)
        _ = try daemon.request(.replayStart)
        let streamed = try readEvents(subscriber, count: expected.count)
        // `until` and `delayed_from` are on the `t` clock too.
        let clock: Set<String> = ["t", "until", "delayed_from"]
        #expect(streamed.map { $0.without(clock).text } == expected.map { $0.without(clock).text })
        try daemon.stop()
    }

    /// Both ways, the zoom's end comes before the mode its action switched to, and that
    /// before the end of the mode.
    @Test func theModeAZoomsEndSwitchesFollowsIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(Self.shippedWithAMode, to: config)
        let lines = try replayJSON(config: config, recording: SharedRecordings.path("atmel-maxtouch-2-finger-tap.evemu"), dir: dir)
        let ended = try #require(lines.firstIndex { $0["gesture"] == .string("map_zoom") && $0["state"] == .string("ended") })
        #expect(lines[ended + 1]["mode"] == .string("still") && lines[ended + 1]["by"] == .string("action of 'map_zoom'"), "\(lines)")
        let end = try #require(lines.firstIndex { $0["cause"] == .string("expired") }, "\(lines)")
        #expect(end > ended + 1 && lines[end]["from"] == .string("still"))
    }

    @Test func aSlowSubscriberIsDroppedWhileAnotherKeepsReceiving() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(daemon: "subscriber_buffer = 4096"), to: config)
        let expected = try replayJSON(config: config, recording: Recording.drag, dir: dir)
        let bytes = expected.reduce(0) { $0 + $1.text.utf8.count + 1 }
        // More than the daemon's buffer plus the socket's, so the silent client must overflow.
        try #require(bytes > 4 * 4096, "the recording gives only \(bytes) bytes of events")

        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.drag)
        let slow = try daemon.client()
        _ = try slow.request(.subscribe)
        let fast = try daemon.client()
        _ = try fast.request(.subscribe)
        _ = try daemon.request(.replayStart)
        let streamed = try readEvents(fast, count: expected.count)
        #expect(streamed.map(\.withoutTime) == expected.map(\.withoutTime))
        #expect(eventually { (try? daemon.status().control.values[ControlMetrics.droppedSubscribers]) == 1 })
        #expect(try daemon.status().control.values[ControlMetrics.subscribers] == 1)
        // The slow one finds what had fit, then the end of the stream.
        var late = 0
        while let line = try slow.readLine() { if EventLine(line: line)?.kind == .event { late += 1 } }
        #expect(late > 0 && late < expected.count)
        #expect(daemon.log.contains("disconnected"))
        try daemon.stop()
    }

    @Test func aCommandTrappingSIGTERMIsKilledAtItsTimeoutWithItsGroup() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let pidFile = dir.file("pgid")
        try writeText(
            TestConfig.tapAndPan(
                daemon: "kill_grace = \"300ms\"",
                tapActions: [
                    // The group leader and its child both ignore SIGTERM; only SIGKILL ends them.
                    "command = 'trap \"\" TERM; echo $$ > \(pidFile).tmp; mv \(pidFile).tmp \(pidFile); sleep 60 & wait'\ntimeout = \"300ms\"\ncooldown = \"60s\""
                ]), to: config)
        let expected = try replayJSON(config: config, recording: Recording.taps, dir: dir)
        try #require(expected.count > 1)

        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        _ = try daemon.request(.replayStart)
        #expect(eventually { readText(pidFile) != nil })
        let group = try #require(pid_t((readText(pidFile) ?? "").split(separator: "\n").first ?? ""))
        #expect(kill(-group, 0) == 0, "the command's group should be running")
        #expect(
            eventually {
                let dispatcher = try? daemon.status().dispatcher
                return dispatcher?[DispatcherMetrics.commandsTimedOut] == 1 && dispatcher?[DispatcherMetrics.runningChildren] == 0
            }, "\(daemon.log)")
        // SIGKILL went to the whole group: the backgrounded sleep is gone too.
        #expect(eventually { kill(-group, 0) == -1 && errno == ESRCH }, "processes left in group \(group)")
        #expect(daemon.children().isEmpty, "children left: \(daemon.children())")
        #expect(eventually { (try? daemon.status().replay?.state) == "finished" })
        let dispatcher = try daemon.status().dispatcher
        #expect(dispatcher[DispatcherMetrics.commandsStarted] == 1)
        #expect(dispatcher[DispatcherMetrics.cooldownSkips] == Double(expected.count - 1))
        #expect(daemon.log.contains("[tap]"))
        try daemon.stop()
    }

    /// Commands that background a process and exit (`sleep &`, even through `setsid`)
    /// no longer escape: what they leave comes back to gestured (a child subreaper), counts
    /// against max_children, is killed at the command's timeout, and is gone after SIGTERM.
    /// It used to be 180 sleeps at once, status saying 0 running, all outliving the daemon.
    @Test func whatCommandsLeaveRunningIsCountedTimedOutAndKilled() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        // Durations unique to this test process mark its sleeps among the machine's
        // processes (another suite running the same test at once has other ones).
        let mark = "61.\(getpid())"
        try writeText(
            TestConfig.tapAndPan(
                daemon: "max_children = 2\nkill_grace = \"200ms\"",
                tapActions: [
                    "command = 'sleep \(mark)1 & exit 0'\ntimeout = \"1500ms\"",
                    "command = 'setsid sleep \(mark)2 & exit 0'\ntimeout = \"1500ms\"",
                ]), to: config)
        func sleeps() -> Int {
            (try? ChildProcess.run("/bin/sh", arguments: ["-c", "pgrep -c -f '^sleep \(mark)[12]$' || true"]))
                .flatMap { Int($0.output.split(separator: "\n").first ?? "") } ?? -1
        }
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps, speed: 4)
        _ = try daemon.request(.replayStart)
        var most = 0
        #expect(
            eventually {
                most = max(most, sleeps())
                return (try? daemon.status().replay?.state) == "finished"
            })
        let dispatcher = try daemon.status().dispatcher
        #expect(most <= 2, "\(most) sleeps at once with max_children = 2")
        #expect(dispatcher[DispatcherMetrics.commandsRefused] > 0, "\(dispatcher)")
        #expect(try daemon.status().refused[RefusalMetrics.commands] == dispatcher[DispatcherMetrics.commandsRefused])
        // The timeout ends them although their shells are long gone.
        #expect(eventually(ceiling: 5) { sleeps() == 0 }, "sleeps left: \(sleeps())\n\(daemon.log)")
        #expect(eventually { (try? daemon.status().dispatcher[DispatcherMetrics.runningChildren]) == 0 })
        #expect(try daemon.status().dispatcher[DispatcherMetrics.commandsTimedOut] > 0)
        // The refusals were logged once per run, with their count.
        let refusedLines = daemon.log.split(separator: "\n").filter { $0.contains("refused") }
        #expect(Double(refusedLines.count) <= 2 * dispatcher[DispatcherMetrics.commandsStarted], "\(refusedLines)")

        // And at shutdown: what runs is killed.
        _ = try? daemon.request(.status)
        try daemon.stop()
        #expect(eventually(ceiling: 3) { sleeps() == 0 })
    }

    /// SIGTERM mid-pan: the pan ends as cancelled, its `on.cancelled` command runs, the
    /// stream's last line says the daemon is stopping, and `gesturectl monitor` ends with
    /// status 0 saying so (it used to exit 1 with "gestured closed the stream").
    @Test func sigtermMidGestureCancelsItAndEndsTheStreamCleanly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let cancelled = dir.file("cancelled")
        try writeText(
            TestConfig.tapAndPan() + "[[gesture.drag.on.cancelled]]\ncommand = 'echo \"$GESTURE_STATE\" > \(cancelled)'\n",
            to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.drag)
        let out = dir.file("monitor.out")
        let status = dir.file("monitor.status")
        let monitor = try ChildProcess.run(
            "/bin/sh",
            arguments: [
                "-c",
                "( '\(Binary.gesturectl)' monitor --socket '\(daemon.socket)' > '\(out)' 2>&1; echo $? > '\(status)' ) < /dev/null > /dev/null 2>&1 & echo started",
            ])
        #expect(monitor.output.contains("started"))
        #expect(eventually { (try? daemon.status().control.values[ControlMetrics.subscribers]) == 1 })
        _ = try daemon.request(.replayStart)
        #expect(eventually { (readText(out) ?? "").contains("drag pan changed") }, "\(readText(out) ?? "")")
        try daemon.stop()
        #expect(eventually(ceiling: 5) { readText(status) != nil })
        let text = readText(out) ?? ""
        #expect(readText(status) == "0\n", "monitor: \(text)")
        #expect(text.contains("drag pan cancelled"), "\(text)")
        #expect(text.hasSuffix("gestured is stopping (SIGTERM)\n"), "\(text)")
        #expect(readText(cancelled) == "cancelled\n", "\(daemon.log)")
    }

    @Test func aBadFileOnSIGHUPKeepsTheRunningConfigAndStatusShowsWhy() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        func gestureNames() throws -> [String] {
            try daemon.status().gestures.map(\.name)
        }
        #expect(try gestureNames() == ["tap", "drag"])
        #expect(try daemon.status().config.lastReload == nil)

        try writeText(TestConfig.tapAndPan() + "[gesture.hold]\ntype = \"long-pres\"\n", to: config)
        kill(daemon.pid, SIGHUP)
        #expect(eventually { (try? daemon.status().config.lastReload?.error) != nil })
        let failure = try daemon.status().config.lastReload?.error ?? ""
        #expect(failure.contains("gestures.toml:") && failure.contains("long-pres"), "\(failure)")
        #expect(try gestureNames() == ["tap", "drag"])
        #expect(daemon.log.contains("long-pres") && daemon.log.contains("the running config stays"))
        let table = try runTool(Binary.gesturectl, ["status", "--socket", daemon.socket], dir: dir)
        #expect(table.stdout.contains("FAILED"), "\(table.stdout)")

        // gesturectl reload: the same refusal as an error, then a good file is taken.
        let refused = try runTool(Binary.gesturectl, ["reload", "--socket", daemon.socket], dir: dir)
        #expect(refused.status != 0 && refused.stderr.contains("long-pres"), "\(refused)")
        try writeText(TestConfig.tapAndPan() + "[gesture.hold]\ntype = \"long-press\"\n", to: config)
        let taken = try runTool(Binary.gesturectl, ["reload", "--socket", daemon.socket], dir: dir)
        #expect(taken.status == 0 && taken.stdout.contains("reloaded"), "\(taken)")
        #expect(try gestureNames() == ["tap", "drag", "hold"])
        #expect(try daemon.status().config.lastReload.map { $0.error == nil } == true)
        try daemon.stop()
    }

    /// A FIFO as the config path: `gesturectl check` and a reload refuse it at once,
    /// saying what it is, instead of waiting for a writer (`timeout` ends a hang: 124).
    @Test func aFIFOAsTheConfigIsRefusedPromptly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.file("fifo.toml")
        try #require(mkfifo(fifo, 0o600) == 0)
        let check = try runTool("/usr/bin/timeout", ["10", Binary.gesturectl, "check", fifo], dir: dir)
        #expect(check.status == 1 && check.stderr.contains("fifo.toml: error: cannot read the config file: is a FIFO"), "\(check)")

        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        try #require(unlink(config) == 0 && mkfifo(config, 0o600) == 0)
        let refused = try runTool("/usr/bin/timeout", ["10", Binary.gesturectl, "reload", "--socket", daemon.socket], dir: dir)
        #expect(refused.status != 0 && refused.stderr.contains("is a FIFO"), "\(refused)")
        #expect(try daemon.status().gestures.count == 2)
        try daemon.stop()
    }

    @Test func checkOption() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let good = dir.file("good.toml")
        let bad = dir.file("bad.toml")
        try writeText(TestConfig.tapAndPan(), to: good)
        try writeText(TestConfig.tapAndPan() + "[gesture.drag2]\ntype = \"pan\"\nmax_touchez = 1\n", to: bad)
        let ok = try runTool(Binary.gestured, ["--check", good], dir: dir)
        #expect(ok.status == 0 && ok.stdout.contains("OK, 2 gestures"), "\(ok)")
        let refused = try runTool(Binary.gestured, ["--check", bad], dir: dir)
        #expect(refused.status == 1 && refused.stderr.contains("bad.toml:") && refused.stderr.contains("max_touchez"), "\(refused)")
        // Started on a bad file, the daemon says so and exits.
        let start = try runTool(Binary.gestured, ["--config", bad, "--socket", dir.file("s.sock")], dir: dir)
        #expect(start.status == 1 && start.stderr.contains("not started"), "\(start)")
        #expect(access(dir.file("s.sock"), F_OK) != 0)
    }

    /// The binary's command line: usage errors exit 64 with the reason on stderr and start
    /// nothing; --version and --help answer on stdout.
    @Test func commandLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let unknown = try runTool(Binary.gestured, ["--socket", dir.file("s.sock"), "--confg", "x.toml"], dir: dir)
        #expect(
            unknown.status == 64 && unknown.stderr.contains("unknown option '--confg'")
                && unknown.stderr.contains("gestured --help"), "\(unknown)")
        #expect(access(dir.file("s.sock"), F_OK) != 0)
        let version = try runTool(Binary.gestured, ["--version"], dir: dir)
        #expect(version.status == 0 && version.stdout == GesturedVersion.current + "\n", "\(version)")
        let help = try runTool(Binary.gestured, ["--help"], dir: dir)
        #expect(help.status == 0 && help.stdout.contains("--replay-speed <x>"), "\(help)")
    }

    /// As root, the config's commands would run as root: a file others may write is refused.
    @Test(.enabled(if: geteuid() == 0, "the safety rule applies to root only"))
    func asRootAWritableConfigIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        chmod(config, 0o666)
        let start = try runTool(Binary.gestured, ["--config", config, "--socket", dir.file("s.sock")], dir: dir)
        #expect(start.status == 1 && start.stderr.contains("refusing") && start.stderr.contains("chmod go-w"), "\(start)")
        #expect(access(dir.file("s.sock"), F_OK) != 0)
    }
}

/// The offline twin's events (`gesturectl replay --json`).
func replayJSON(config: String, recording: String, dir: TemporaryDirectory) throws -> [JSONValue] {
    let run = try runTool(Binary.gesturectl, ["replay", "--json", "--config", config, recording], dir: dir)
    try #require(run.status == 0, "gesturectl replay failed: \(run.stderr)")
    return try run.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)[...]) }
}

/// Reads `count` event lines (or until the stream ends).
func readEvents(_ client: ControlClient, count: Int) throws -> [JSONValue] {
    var events: [JSONValue] = []
    while events.count < count, let line = try client.readLine() { events.append(try JSONParser.parse(line[...])) }
    return events
}

/// Positions as sorted pairs of numbers, so that output formats and orders compare.
func positions(_ pairs: [(String, String)]) -> [[Double]] {
    pairs.map { [Double($0.0) ?? .nan, Double($0.1) ?? .nan] }.sorted { $0.lexicographicallyPrecedes($1) }
}

func positions(_ events: [JSONValue]) -> [[Double]] {
    events.map { [$0["x"]?.doubleValue ?? .nan, $0["y"]?.doubleValue ?? .nan] }.sorted { $0.lexicographicallyPrecedes($1) }
}

extension JSONValue {
    /// The event without its `t` (live streams count from the daemon's start).
    var withoutTime: JSONValue { without(["t"]) }

    /// The kind of stream line it is (`EventLine`), if any.
    var kind: EventLine.Kind? { EventLine(self)?.kind }

    /// The object without the members named.
    func without(_ names: Set<String>) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { !names.contains($0.0) })
    }
}

/// A datagram socket a socket action sends to.
final class DatagramReceiver {
    let fd: FileDescriptor
    private(set) var messages: [String] = []

    init(path: String) throws {
        fd = try UnixSocket.make(datagram: true)
        try UnixSocket.bind(fd, to: path)
    }

    /// Takes every datagram waiting.
    func receiveAll() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd.rawValue, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { return }
            messages.append(String(decoding: buffer[..<n], as: UTF8.self))
        }
    }
}
