import DaemonTestSupport
import LinuxSystem
import TestSupport
import Testing
import TouchInput

@testable import ActionDispatch
@testable import GestureDaemon
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemdNotifierTests {
    private func receive(_ listener: Listener, _ loop: EventLoop, count: Int) throws -> [String] {
        var messages: [String] = []
        try serve(loop) {
            var buffer: [UInt8] = []
            while let n = try? listener.fd.readAvailable(into: &buffer, max: 512), n > 0 {
                messages.append(String(decoding: buffer, as: UTF8.self))
                buffer.removeAll()
            }
            return messages.count >= count
        }
        return messages
    }

    @Test func absentWithoutNotifySocket() throws {
        #expect(try SystemdNotifier(environment: [:]) == nil)
    }

    @Test func readyAndWatchdogOnAPathSocket() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let listener = try Listener(path: dir.file("notify"), datagram: true)
        let notifier = try #require(try SystemdNotifier(environment: ["NOTIFY_SOCKET": dir.file("notify"), "WATCHDOG_USEC": "100000"]))
        #expect(notifier.watchdogInterval == 50_000)
        try notifier.notify("READY=1")
        let loop = try EventLoop()
        try notifier.startWatchdog(on: loop) { Issue.record("watchdog ping failed: \($0)") }
        // READY, the first ping at once, then at least two more from the timer.
        let messages = try receive(listener, loop, count: 4)
        #expect(messages.first == "READY=1")
        #expect(messages.dropFirst().allSatisfy { $0 == "WATCHDOG=1" } && messages.count >= 4)
    }

    @Test func abstractSocketAndForeignWatchdogPid() throws {
        let name = "@gestured-test-\(getpid())-\(MonotonicClock.now())"
        let listener = try Listener(path: name, datagram: true)
        let notifier = try #require(
            try SystemdNotifier(environment: [
                "NOTIFY_SOCKET": name, "WATCHDOG_USEC": "100000", "WATCHDOG_PID": "\(getpid() + 1)",
            ]))
        #expect(notifier.watchdogInterval == nil, "the watchdog belongs to another process")
        try notifier.notify("READY=1")
        let loop = try EventLoop()
        #expect(try receive(listener, loop, count: 1) == ["READY=1"])
    }

    @Test func missingSocketIsAnError() throws {
        let notifier = try #require(try SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify"]))
        // The message names the socket and what was sent (it said "sd_notify to failed").
        do {
            try notifier.notify("READY=1")
            Issue.record("no error")
        } catch {
            #expect(
                error.description.hasPrefix("/nonexistent/notify: sending READY=1 to NOTIFY_SOCKET failed: No such file or directory"),
                "\(error)")
        }
    }

    /// A systemd that does not drain its socket (EAGAIN): one warning that says so, not one
    /// per message (the soak saw a line per STATUS= and the "no socket" hint), and one more
    /// only after sends have worked again.
    @Test func aFullNotifySocketIsReportedOnceUntilItDrains() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let listener = try Listener(path: dir.file("notify"), datagram: true)
        let notifier = try #require(try SystemdNotifier(environment: ["NOTIFY_SOCKET": dir.file("notify")]))
        var warnings: [SystemError] = []
        func flood() { for _ in 0..<5000 { notifier.send("STATUS=flood") { warnings.append($0) } } }
        flood()
        #expect(warnings.count == 1)
        #expect(warnings.first?.description.contains("not reading its notify socket") == true, "\(warnings)")
        var buffer: [UInt8] = []
        while let n = try? listener.fd.readAvailable(into: &buffer, max: 512), n > 0 { buffer.removeAll() }
        flood()
        #expect(warnings.count == 2, "a send worked in between, so the next failure is news")
    }
}
