import DaemonTestSupport
import GestureConfig
import GestureCore
import Logging
import TestSupport
import Testing

@testable import ActionDispatch
@testable import GestureDaemon
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// `[device.on.noisy]` and `[device.on.ok]` on a panel's real health stage, in the
/// loop's manual time: the noisy action runs, not again within its cooldown, again after
/// it; the ok action runs each time (no cooldown of its own here).
@Suite struct HealthActionTests {
    static let minute: Microseconds = 60_000_000

    /// Ghost contacts (20 ms, still) at the clock's time: 3 within a minute make the
    /// panel noisy (`noisy_above = 2`).
    static let config = """
        [screen]
        width = 800
        height = 600
        [[device]]
        name = "Panel*"
        [device.health]
        min_contact = "50ms"
        noisy_above = 2
        noisy_quiet = "1min"
        [device.on.noisy]
        command = 'echo "$GESTURE_HEALTH $GESTURE_DEVICE $GESTURE_DEVICE_NAME $GESTURE_DEVICE_PATH|$GESTURE_REASON" >> "$OUT"'
        [device.on.ok]
        command = 'echo "$GESTURE_HEALTH $GESTURE_TIME|$GESTURE_REASON" >> "$OUT"'
        cooldown = "0s"
        """

    /// The panel, its stage, the dispatcher, and the loop's clock.
    final class Panel {
        let clock = ManualClock()
        let loop: EventLoop
        let dispatcher: Dispatcher
        let health: HealthRun
        let out: String
        var seen = 0
        var nextID: Int32 = 1

        init(out: String) throws {
            var configuration = try ConfigLoader.parse(text: HealthActionTests.config, file: "t.toml")
            configuration.daemon.environment = [EnvironmentEntry(name: "OUT", value: out)]
            self.out = out
            loop = try EventLoop(clock: .manual(clock))
            // Times count from the clock's start, as the daemon's from its own.
            dispatcher = try Dispatcher(loop: loop, configuration: configuration, origin: clock.now, logger: Logger(label: "test"))
            health = HealthRun(configuration.devices[0].health, panel: FrameBuilder())
        }

        /// `count` ghosts, one every second from now (the clock moves with them).
        func ghosts(_ count: Int) {
            var b = FrameBuilder()
            for _ in 0..<count {
                b.tap(nextID, x: 100 + Double(nextID) * 20, y: 300, at: clock.now, duration: 20_000)
                nextID += 1
                clock.advance(by: 1_000_000)
            }
            health.run(b.frames)
            dispatchNew()
        }

        /// Time passes without a frame until `time`: the stage's timers run up to it.
        func wait(until time: Microseconds) {
            clock.advance(by: time - clock.now)
            health.run([], until: clock.now)
            dispatchNew()
        }

        /// The state changes since the last call, handed to the panel's rule's actions as
        /// the daemon hands them.
        private func dispatchNew() {
            for notice in health.notices.dropFirst(seen) {
                guard case .state(_, let to, let reason) = notice.kind else { continue }
                dispatcher.dispatch(
                    HealthChange(
                        device: DeviceID(1), name: "Panel A", path: "/dev/input/event7", state: to, reason: reason, time: notice.time),
                    rule: 0)
            }
            seen = health.notices.count
        }

        /// The lines the actions wrote, once every command has ended.
        func lines(_ expected: Int) throws -> [String] {
            try serve(loop) { dispatcher.runningChildren == 0 && (readText(out)?.split(separator: "\n").count ?? 0) >= expected }
            return readText(out)?.split(separator: "\n").map(String.init) ?? []
        }
    }

    @Test func noisyRunsItsActionNotAgainWithinTheCooldownAgainAfterIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let panel = try Panel(out: dir.file("actions.txt"))
        let start = panel.clock.now

        panel.ghosts(3)
        #expect(panel.health.stage.state == .noisy)
        #expect(
            try panel.lines(1) == [
                "noisy 1 Panel A /dev/input/event7|3 contacts filtered within a minute (more than 2)"
            ])

        // Quiet: ok after the rate fell back and a minute passed; its action runs.
        panel.wait(until: start + 3 * Self.minute)
        #expect(panel.health.stage.state == .ok)
        var lines = try panel.lines(2)
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix("ok ") == true && lines.last?.hasSuffix("|at most 2 contacts filtered a minute for 60s") == true)

        // Noisy again 5 minutes after the first: within the 10-minute default cooldown.
        panel.wait(until: start + 5 * Self.minute)
        panel.ghosts(3)
        #expect(panel.health.stage.state == .noisy)
        panel.wait(until: start + 8 * Self.minute)
        lines = try panel.lines(3)
        #expect(lines.filter { $0.hasPrefix("noisy") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ok") }.count == 2, "the ok action has no cooldown: \(lines)")
        #expect(panel.dispatcher.counters.cooldownSkips == 1)

        // Noisy once more, past 10 minutes since the action last ran: it runs again.
        panel.wait(until: start + 10 * Self.minute + 2_020_000)
        panel.ghosts(3)
        lines = try panel.lines(4)
        #expect(lines.filter { $0.hasPrefix("noisy") }.count == 2, "\(lines)")
        #expect(panel.dispatcher.counters.cooldownSkips == 1)
        #expect(panel.dispatcher.counters.commandsStarted == 4)
    }

    /// Each panel keeps its own cooldown: a second panel's noise runs the action though
    /// the first's just ran.
    @Test func eachPanelHasItsOwnCooldown() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.file("actions.txt")
        var configuration = try ConfigLoader.parse(text: Self.config, file: "t.toml")
        configuration.daemon.environment = [EnvironmentEntry(name: "OUT", value: out)]
        let clock = ManualClock()
        let loop = try EventLoop(clock: .manual(clock))
        let dispatcher = try Dispatcher(loop: loop, configuration: configuration, origin: 0, logger: Logger(label: "test"))
        let noisy = HealthReason.filtered(count: 3, perMinute: 2)
        for (device, path) in [(1, "/dev/input/event7"), (2, "/dev/input/event8"), (1, "/dev/input/event7")] {
            clock.advance(by: 1_000_000)
            dispatcher.dispatch(
                HealthChange(device: DeviceID(UInt32(device)), name: "Panel", path: path, state: .noisy, reason: noisy, time: clock.now),
                rule: 0)
        }
        try serve(loop) { dispatcher.runningChildren == 0 && (readText(out)?.split(separator: "\n").count ?? 0) >= 2 }
        let lines = readText(out)?.split(separator: "\n").map(String.init) ?? []
        // The two panels' children run side by side: either may append first.
        let ran = lines.map { $0.split(separator: "|")[0] }.sorted()
        #expect(ran == ["noisy 1 Panel /dev/input/event7", "noisy 2 Panel /dev/input/event8"])
        #expect(dispatcher.counters.cooldownSkips == 1)
    }

    /// A socket action without a message sends the health line subscribers get; with one,
    /// the placeholders of the health change.
    @Test func socketActionsSendTheHealthLineOrTheirMessage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("health.sock")
        let listener = try Listener(path: path, datagram: true)
        let text = """
            [screen]
            width = 800
            height = 600
            [[device]]
            name = "Panel*"
            [[device.on.silent]]
            socket = "\(path)"
            datagram = true
            [[device.on.silent]]
            socket = "\(path)"
            datagram = true
            message = "{device_name} ({device_path}) is {health}: {reason}"
            """
        let configuration = try ConfigLoader.parse(text: text, file: "t.toml")
        let loop = try EventLoop(clock: .manual(ManualClock()))
        let dispatcher = try Dispatcher(loop: loop, configuration: configuration, origin: 1_000_000, logger: Logger(label: "test"))
        dispatcher.dispatch(
            HealthChange(
                device: DeviceID(4), name: "Panel B", path: "/dev/input/event9", state: .silent,
                reason: .noFrame(silence: 3_600_000_000), time: 3_500_000),
            rule: 0)
        var received: [String] = []
        try serve(loop) {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = recv(listener.fd.rawValue, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { received.append(String(decoding: buffer[0..<n], as: UTF8.self)) }
            return received.count == 2
        }
        #expect(
            received == [
                #"{"t":2.500,"device":4,"health":"silent","reason":"no frame for 3600s"}"# + "\n",
                "Panel B (/dev/input/event9) is silent: no frame for 3600s\n",
            ])
    }
}
