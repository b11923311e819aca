import DaemonTestSupport
import GestureConfig
import GestureControl
import GestureCore
import JSONOutput
import LinuxSystem
import Logging
import TestSupport
import Testing

@testable import ActionDispatch
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DispatcherTests {
    let logger = Logger(label: "test")

    private func event(_ gesture: Int = 0, _ state: GestureState = .recognized, time: Int64 = 2_500_000) -> GestureEvent {
        GestureEvent(
            time: time, gesture: gesture, view: 1, state: state, device: DeviceID(3), x: 120.25, y: 40, touches: 2,
            direction: .left)
    }

    @Test func commandGetsTheGestureEnvironment() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.file("env.txt")
        var settings = DaemonSettings()
        settings.environment = [
            EnvironmentEntry(name: "KIOSK", value: "hall"), EnvironmentEntry(name: "HOME", value: "/srv/kiosk"),
            EnvironmentEntry(name: "KIOSK", value: "lobby"),
        ]
        let config = try makeConfiguration(
            [
                ("back", .swipe, [.recognized: [ActionSpec(kind: .command("env > '\(out).tmp' && mv '\(out).tmp' '\(out)'"))]])
            ], settings: settings)
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 1_000_000, logger: logger)
        dispatcher.dispatch(event())
        #expect(try serve(loop) { dispatcher.runningChildren == 0 && readText(out) != nil })
        let lines = Set(readText(out)!.split(separator: "\n").map(String.init))
        for expected in [
            "GESTURE_NAME=back", "GESTURE_TYPE=swipe", "GESTURE_STATE=recognized", "GESTURE_VIEW=panel",
            "GESTURE_X=120.3", "GESTURE_Y=40.0", "GESTURE_TOUCHES=2", "GESTURE_DIRECTION=left",
            "GESTURE_TIME=1.500", "GESTURE_DEVICE=3", "KIOSK=lobby",
        ] {
            #expect(lines.contains(expected), "missing \(expected)")
        }
        #expect(!lines.contains { $0.hasPrefix("GESTURE_SCALE=") }, "a swipe carries no pinch values")
        #expect(lines.contains("HOME=/srv/kiosk") && lines.filter { $0.hasPrefix("HOME=") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("KIOSK=") } == ["KIOSK=lobby"])
        #expect(lines.contains { $0.hasPrefix("PATH=") }, "the daemon's environment is inherited")
        #expect(dispatcher.counters.commandsStarted == 1)
        #expect(dispatcher.counters.commandsFailed == 0)
    }

    @Test func childHasCleanSignalsGroupAndDescriptors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.file("proc.txt")
        // A descriptor without CLOEXEC in the daemon must still not reach the child.
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let command = """
            { grep -E '^(SigBlk|SigIgn)' /proc/self/status; ps -o pgid= -p $$; echo pid $$; ls /proc/self/fd | sort -n | tr '\\n' ' '; echo; readlink /proc/self/fd/0; } > '\(out).tmp'; mv '\(out).tmp' '\(out)'
            """
        let config = try makeConfiguration([("t", .tap, [.recognized: [ActionSpec(kind: .command(command))]])])
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)
        dispatcher.dispatch(event())
        #expect(try serve(loop) { dispatcher.runningChildren == 0 && readText(out) != nil })
        let text = readText(out)!
        #expect(text.contains("SigBlk:\t0000000000000000"))
        // Signals 1-31 at their defaults; 32 and 33 are glibc's own, which no spawn resets.
        let ignored = text.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(8), radix: 16) }
        #expect(ignored.map { $0 & 0x7fff_ffff } == 0)
        let lines = text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        let pid = lines.first { $0.hasPrefix("pid ") }.map { String($0.dropFirst(4)) }
        #expect(lines.contains(pid ?? "none"), "the shell leads its own process group")
        // ls itself holds the fd of /proc/self/fd it lists: 0, 1, 2 and that one.
        let fdLine = lines.first { $0.hasPrefix("0 1 2") }
        #expect(fdLine?.split(separator: " ").count == 4, "inherited descriptors: \(fdLine ?? "?")")
        #expect(lines.last == "/dev/null")
    }

    @Test func timeoutKillsTheWholeGroupEvenWhenSIGTERMIsTrapped() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pidFile = dir.file("pid")
        let config = try makeConfiguration(
            [
                (
                    "stuck", .tap,
                    [
                        .recognized: [
                            ActionSpec(
                                kind: .command(
                                    "trap '' TERM; sleep 600 & echo $$ > '\(pidFile).tmp'; mv '\(pidFile).tmp' '\(pidFile)'; wait; wait"),
                                timeout: 200_000)
                        ]
                    ]
                )
            ],
            settings: {
                var s = DaemonSettings()
                s.killGrace = 300_000
                return s
            }())
        let clock = ManualClock()
        let loop = try EventLoop(clock: .manual(clock))
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)
        dispatcher.dispatch(event())
        #expect(try serve(loop) { readText(pidFile) != nil })
        let group = pid_t(readText(pidFile)!.split(separator: "\n")[0])!
        #expect(kill(-group, 0) == 0, "the group is alive before the timeout")
        clock.advance(by: 200_000)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(dispatcher.counters.commandsTimedOut == 1, "SIGTERM at the timeout")
        // SIGTERM is trapped (and ignored by the sleep, which inherits that): until the
        // grace is over the group lives.
        clock.advance(by: 300_000 - 1)
        for _ in 0..<3 { try loop.runOnce(timeoutMilliseconds: 0) }
        #expect(kill(-group, 0) == 0, "SIGKILL waits for the grace")
        clock.advance(by: 1)
        #expect(try serve(loop) { kill(-group, 0) != 0 && dispatcher.runningChildren == 0 })
        #expect(errno == ESRCH, "no process remains in the group")
        #expect(dispatcher.counters.commandsTimedOut == 1)
        #expect(dispatcher.counters.commandsFailed == 1)
        // The leader is reaped: waitpid finds no such child (no zombie left).
        var status: Int32 = 0
        #expect(waitpid(group, &status, WNOHANG) == -1 && errno == ECHILD)
    }

    /// A group that outlives SIGKILL (here a zombie of this test process, as a zombie
    /// under a PID 1 that does not reap, or a process in uninterruptible sleep) is checked
    /// on every few seconds and said once: SIGKILL and its warning used to repeat in a
    /// tight loop, a core spinning and the journal flooded.
    @Test func aGroupThatOutlivesSIGKILLIsNotSpunOn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pidFile = dir.file("pid")
        let records = LogRecords()
        let config = try makeConfiguration(
            [
                (
                    "stuck", .tap,
                    [
                        .recognized: [
                            ActionSpec(
                                kind: .command(
                                    "trap '' TERM; echo $$ > '\(pidFile).tmp'; mv '\(pidFile).tmp' '\(pidFile)'; sleep 600"),
                                timeout: 100_000)
                        ]
                    ]
                )
            ],
            settings: {
                var s = DaemonSettings()
                s.killGrace = 100_000
                return s
            }())
        let clock = ManualClock()
        let loop = try EventLoop(clock: .manual(clock))
        let dispatcher = try Dispatcher(
            loop: loop, configuration: config, origin: 0,
            logger: Logger(label: "test") { _ in CollectingLogHandler(records: records) })
        dispatcher.dispatch(event())
        #expect(try serve(loop) { readText(pidFile) != nil })
        let group = try #require(pid_t(readText(pidFile)!.split(separator: "\n")[0]))
        // A process of this test's in the command's group: killed, it stays a zombie the
        // runner cannot reap, so the group never empties.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, group)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        var lingering = pid_t()
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("600"), nil]
        defer { argv.forEach { free($0) } }
        try #require(posix_spawn(&lingering, "/bin/sleep", nil, &attributes, argv, nil) == 0)
        defer {
            var status: Int32 = 0
            kill(lingering, SIGKILL)
            waitpid(lingering, &status, 0)
        }
        // The timeout (SIGTERM, trapped), the grace (SIGKILL), then ten rechecks: the
        // lingering zombie is signalled at each, and the warning said once.
        clock.advance(by: 100_000)
        try loop.runOnce(timeoutMilliseconds: 0)
        clock.advance(by: 100_000)
        // The shell and its sleep die and are reaped; the zombie keeps the group.
        #expect(try serve(loop) { dispatcher.runningChildren == 0 })
        for _ in 0..<10 {
            clock.advance(by: CommandRunner.lingerRecheck)
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        #expect(kill(lingering, 0) == 0)
        let kills = records.lines.filter { $0.1.contains("SIGKILL") }
        #expect(kills.count == 2, "\(kills.count) SIGKILL warnings: \(kills.prefix(3))")
        #expect(kills.last?.1.contains("checking every") == true)
        #expect(dispatcher.counters.commandsTimedOut == 1)
        // Between rechecks nothing is due: the loop sleeps, it does not spin (a timer
        // re-armed in the past would fire on every turn).
        var wakes = 0
        for _ in 0..<100 where try loop.runOnce(timeoutMilliseconds: 0) > 0 { wakes += 1 }
        #expect(wakes == 0, "\(wakes) wakes with nothing due")
        #expect(records.lines.filter { $0.1.contains("SIGKILL") }.count == 2)
    }

    @Test func capRefusesAndCooldownSkips() throws {
        var settings = DaemonSettings()
        settings.maxChildren = 2
        let config = try makeConfiguration(
            [
                // Real children, alive through the three dispatches below.
                ("busy", .tap, [.recognized: [ActionSpec(kind: .command("sleep 0.3"))]]),
                ("calm", .tap, [.recognized: [ActionSpec(kind: .command("true"), cooldown: 1_000_000)]]),
            ], settings: settings)
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)
        for _ in 0..<3 { dispatcher.dispatch(event(0)) }
        #expect(dispatcher.counters.commandsStarted == 2)
        #expect(dispatcher.counters.commandsRefused == 1)
        #expect(try serve(loop) { dispatcher.runningChildren == 0 })
        dispatcher.dispatch(event(1, time: 10_000_000))
        dispatcher.dispatch(event(1, time: 10_500_000))
        dispatcher.dispatch(event(1, time: 11_000_000))
        #expect(dispatcher.counters.cooldownSkips == 1)
        #expect(dispatcher.counters.commandsStarted == 4)
        #expect(try serve(loop) { dispatcher.runningChildren == 0 })
        #expect(dispatcher.counters.commandsFailed == 0)
    }

    @Test func reconfigureSwapsActionsAndRefusesABadTemplate() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let first = try makeConfiguration([("t", .tap, [.recognized: [ActionSpec(kind: .command("touch '\(dir.file("one"))'"))]])])
        let second = try makeConfiguration([("t", .tap, [.recognized: [ActionSpec(kind: .command("touch '\(dir.file("two"))'"))]])])
        let bad = try makeConfiguration([
            (
                "t", .tap,
                [
                    .recognized: [
                        ActionSpec(
                            kind: .socket(
                                path: dir.file("s"), message: MessageTemplate(segments: [.field("nope")]), datagram: false))
                    ]
                ]
            )
        ])
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: first, origin: 0, logger: logger)
        try dispatcher.reconfigure(second)
        #expect(throws: TemplateError.self) { try dispatcher.reconfigure(bad) }
        dispatcher.dispatch(event())
        #expect(try serve(loop) { dispatcher.runningChildren == 0 && access(dir.file("two"), F_OK) == 0 })
        #expect(access(dir.file("one"), F_OK) != 0, "the first config's action no longer runs")
    }

    @Test func missingShellIsASpawnFailureNotACrash() throws {
        let records = LogRecords()
        var settings = DaemonSettings()
        settings.shell = "/nonexistent/sh"
        let config = try makeConfiguration([("t", .tap, [.recognized: [ActionSpec(kind: .command("true"))]])], settings: settings)
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(
            loop: loop, configuration: config, origin: 0,
            logger: Logger(label: "test") { _ in CollectingLogHandler(records: records) })
        dispatcher.dispatch(event())
        #expect(dispatcher.counters.spawnFailures == 1)
        #expect(dispatcher.counters.commandsStarted == 0)
        #expect(dispatcher.runningChildren == 0)
        #expect(records.lines.contains { $0.0 == .error && $0.1.contains("/nonexistent/sh") && $0.1.contains("No such file") })
    }

    @Test func failingCommandIsCountedAndNothingStaysBehind() throws {
        let config = try makeConfiguration([
            ("bad", .tap, [.recognized: [ActionSpec(kind: .command("echo oops >&2; exit 3"))]])
        ])
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)
        for _ in 0..<5 { dispatcher.dispatch(event()) }
        #expect(try serve(loop) { dispatcher.counters.commandsFailed == 5 })
        #expect(dispatcher.runningChildren == 0)
    }

    @Test func streamSocketMessagesArriveAndReconnect() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("app.sock")
        // No newline in the template: the message is a line all the same (nine taps used to
        // reach a listener as 99 bytes without one).
        let template = MessageTemplate(segments: [.text("swipe "), .field("direction"), .text(" at "), .field("x")])
        let config = try makeConfiguration([
            ("back", .swipe, [.recognized: [ActionSpec(kind: .socket(path: path, message: template, datagram: false))]]),
            ("json", .pinch, [.changed: [ActionSpec(kind: .socket(path: path, message: nil, datagram: false))]]),
        ])
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)

        // No listener yet: the message waits, the failure is counted.
        dispatcher.dispatch(event(0))
        #expect(dispatcher.counters.socketFailures >= 1)
        var listener: Listener? = try Listener(path: path, datagram: false)
        var connection: FileDescriptor?
        var received: [UInt8] = []
        func pump() -> Bool {
            if connection == nil { connection = listener?.accept() }
            if let connection { _ = try? connection.readAvailable(into: &received) }
            return false
        }
        #expect(
            try serve(loop) {
                _ = pump()
                return String(decoding: received, as: UTF8.self) == "swipe left at 120.3\n"
            })
        // A `changed` action runs at the display's pace: on the pipeline's paced event of
        // its period (60 Hz by default), not on every `changed`, nor on another period's.
        dispatcher.dispatch(event(1, .changed))
        dispatcher.dispatch(event(1, .changed), paced: 33_333)
        dispatcher.dispatch(event(1, .changed), paced: 16_667)
        #expect(
            try serve(loop) {
                _ = pump()
                return received.filter { $0 == 10 }.count == 2
            })
        #expect(dispatcher.counters.socketMessagesSent == 2)
        let jsonLine = String(decoding: received, as: UTF8.self).split(separator: "\n")[1]
        let json = try JSONParser.parse(String(jsonLine))
        #expect(json["gesture"] == .string("json"))
        #expect(json["scale"] == .number(1))

        // The listener goes away and comes back: the next message reconnects.
        connection = nil
        listener = nil
        unlink(path)
        let failuresBefore = dispatcher.counters.socketFailures
        dispatcher.dispatch(event(0))
        // The message waits while connecting fails.
        #expect(try serve(loop) { dispatcher.counters.socketFailures > failuresBefore })
        #expect(dispatcher.counters.socketMessagesSent == 2)
        listener = try Listener(path: path, datagram: false)
        received = []
        #expect(
            try serve(loop) {
                _ = pump()
                return String(decoding: received, as: UTF8.self) == "swipe left at 120.3\n"
            })
        #expect(dispatcher.counters.socketMessagesSent == 3)
    }

    /// Exactly one newline ends every message, whatever the template's text ends with.
    @Test(arguments: ["", "\n", "\r\n", "\n\n\n"])
    func everyMessageEndsWithExactlyOneNewline(ending: String) throws {
        let template = try CompiledTemplate(MessageTemplate(segments: [.text("at "), .field("x"), .text(ending)]))
        var writer = JSONWriter()
        let names = GestureNames(gestures: ["back"], types: [.swipe], views: ["root"])
        template.render(event(0), names: names, origin: 0, into: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "at 120.3\n")
    }

    @Test func datagramQueueIsBounded() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("dgram.sock")
        var settings = DaemonSettings()
        settings.socketQueue = 3
        let config = try makeConfiguration(
            [
                ("tap", .tap, [.recognized: [ActionSpec(kind: .socket(path: path, message: nil, datagram: true))]])
            ], settings: settings)
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)
        for _ in 0..<5 { dispatcher.dispatch(event()) }
        #expect(dispatcher.counters.socketMessagesDropped == 2)
        var listener = try Listener(path: path, datagram: true)
        var datagrams = 0
        func receive() -> Int {
            var buffer: [UInt8] = []
            while let n = try? listener.fd.readAvailable(into: &buffer), n > 0 {
                datagrams += 1
                buffer.removeAll()
            }
            return datagrams
        }
        #expect(try serve(loop) { receive() == 3 })
        #expect(dispatcher.counters.socketMessagesSent == 3)

        // The receiver restarts: the target notices, reconnects, and delivers.
        unlink(path)
        listener = try Listener(path: path, datagram: true)
        let failuresBefore = dispatcher.counters.socketFailures
        dispatcher.dispatch(event())
        #expect(try serve(loop) { receive() == 4 })
        #expect(dispatcher.counters.socketMessagesSent == 4)
        #expect(dispatcher.counters.socketFailures > failuresBefore, "the send to the old receiver failed first")
    }
}

@Suite struct DispatcherLifetimeTests {
    @Test func droppingTheDispatcherLeavesTheLoopSafe() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let done = dir.file("done")
        let config = try makeConfiguration([
            (
                "t", .tap,
                [
                    .recognized: [
                        ActionSpec(
                            kind: .command(
                                "sleep 0.1; touch '\(done)'; echo bye >&2"))
                    ]
                ]
            )
        ])
        let loop = try EventLoop()
        var dispatcher: Dispatcher? = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: Logger(label: "test"))
        dispatcher?.dispatch(GestureEvent(time: 0, gesture: 0, view: 1, state: .recognized, device: DeviceID(1)))
        dispatcher = nil
        // The child writes and exits while nobody supervises it: the loop must not call
        // into freed objects (a crash ends the test run).
        #expect(try serve(loop) { access(done, F_OK) == 0 })
        try loop.runOnce(timeoutMilliseconds: 50)
    }
}

@Suite struct SocketTargetTests {
    @Test func unreachableTargetGivesUpAndStopsWaking() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock()
        let loop = try EventLoop(clock: .manual(clock))
        var sent = 0
        var dropped = 0
        var failed = 0
        let target = try SocketTarget(
            key: SocketTarget.Key(path: dir.file("nobody.sock"), datagram: false), capacity: 8,
            loop: loop, logger: Logger(label: "test"), giveUpAfter: 300_000
        ) {
            sent += $0
            dropped += $1
            failed += $2
        }
        target.send(Array("a\n".utf8))
        target.send(Array("b\n".utf8))
        // The clock moves 50 ms a turn: retries at 100, 300 and 700 ms (the backoff
        // doubles), the give-up after 300 ms of failing.
        #expect(
            try serve(loop) {
                clock.advance(by: 50_000)
                return dropped == 2
            }, "both waiting messages are dropped after the give-up time")
        #expect(failed >= 3, "it retried with a backoff before giving up")
        #expect(sent == 0)
        // Nothing waits any more: no retry is armed, however long the loop sleeps.
        let failures = failed
        clock.advance(by: 3_600_000_000)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(failed == failures)
        // The next message tries again, and reaches a receiver that is now there.
        let listener = try Listener(path: dir.file("nobody.sock"), datagram: false)
        target.send(Array("c\n".utf8))
        var received: [UInt8] = []
        var connection: FileDescriptor?
        #expect(
            try serve(loop) {
                if connection == nil { connection = listener.accept() }
                if let connection { _ = try? connection.readAvailable(into: &received) }
                return received == Array("c\n".utf8)
            })
        #expect(sent == 1)
    }
}
