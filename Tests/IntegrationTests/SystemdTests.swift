import GestureControl
import GestureCore
import TestSupport
import Testing

@testable import ActionDispatch
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// gestured as systemd runs it: READY=1 on $NOTIFY_SOCKET, watchdog pings only when asked
/// for, and an idle daemon that never wakes.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct SystemdTests {
    /// gestured on the tap-and-pan config (`dir`/gestures.toml) and the taps recording,
    /// with `$NOTIFY_SOCKET` bound in `dir` (and `environment`).
    private func start(in dir: TemporaryDirectory, environment: [String: String] = [:])
        throws -> (daemon: GesturedProcess, notify: DatagramReceiver, config: String)
    {
        let notify = try DatagramReceiver(path: dir.file("notify.sock"))
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let daemon = try GesturedProcess(
            config: config, dir: dir, replay: Recording.taps,
            environment: environment.merging(["NOTIFY_SOCKET": dir.file("notify.sock")]) { $1 })
        return (daemon, notify, config)
    }

    @Test func readyAndIdleWithoutWatchdog() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (daemon, notify, _) = try start(in: dir)
        #expect(
            eventually {
                notify.receiveAll()
                return notify.messages.contains("READY=1")
            })
        // Once the start-up's last client has gone (its close is one more wake)...
        var settled = daemon.contextSwitches()
        #expect(
            eventually {
                usleep(50_000)
                defer { settled = daemon.contextSwitches() }
                return daemon.contextSwitches() == settled
            })
        // ... idle: nothing armed, so not a single wake-up in a second (real time: the
        // kernel counts the real daemon's context switches).
        let before = daemon.contextSwitches()
        let end = MonotonicClock.now() + 1_000_000
        while MonotonicClock.now() < end { usleep(100_000) }
        #expect(daemon.contextSwitches() - before == 0)
        notify.receiveAll()
        #expect(!notify.messages.contains("WATCHDOG=1"))
        try daemon.stop()
        #expect(
            eventually {
                notify.receiveAll()
                return notify.messages.last == "STOPPING=1"
            })
    }

    @Test func watchdogPingsAtHalfTheInterval() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let begin = MonotonicClock.now()
        let (daemon, notify, _) = try start(in: dir, environment: ["WATCHDOG_USEC": "200000"])
        #expect(
            eventually {
                notify.receiveAll()
                return notify.messages.count { $0 == "WATCHDOG=1" } >= 4
            })
        // Four pings (one at start, then every 100 ms) take at least 300 ms.
        #expect(MonotonicClock.now() - begin >= 300_000)
        try daemon.stop()
    }

    /// `systemctl status` shows STATUS=: the config and its touchscreens, then, after a
    /// refused reload, that the previous config runs and the first error.
    @Test func statusLinesNameTheConfigAndARefusedReload() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (daemon, notify, config) = try start(in: dir)
        #expect(
            eventually {
                notify.receiveAll()
                return notify.messages.contains("STATUS=2 gestures from \(config); 1 touchscreen")
            })
        try writeText(TestConfig.tapAndPan() + "\n[gesture.tap]\ntapz = 1\n", to: config)
        #expect(throws: ControlClientError.self) { try daemon.request(.reload) }
        #expect(
            eventually {
                notify.receiveAll()
                return notify.messages.contains {
                    $0.hasPrefix("STATUS=2 gestures from \(config); 1 touchscreen; last reload refused (\(config):")
                }
            })
        try daemon.stop()
    }
}
