import DaemonTestSupport
import GestureConfig
import GestureCore
import Logging
import Testing

@testable import ActionDispatch
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// Collects log records in memory (a class, so the test reads what the handler appended).
final class LogRecords: @unchecked Sendable {
    // Only touched from the test's own thread (the loop runs there).
    var lines: [(Logger.Level, String)] = []
}

struct CollectingLogHandler: LogHandler {
    let records: LogRecords
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { records.lines.append((event.level, "\(event.message)")) }
}

@Suite struct LoggingTests {
    @Test func journalLinesCarryPriorityAndNoTimestamp() {
        let handler = StderrLogHandler(journal: true)
        #expect(handler.line(.warning, "socket gone", ["path": "/run/x"]) == "<4>socket gone path=/run/x\n")
        #expect(handler.line(.error, "two\nlines", [:]) == "<3>two lines\n")
        let terminal = StderrLogHandler(journal: false).line(.info, "hello", [:])
        #expect(terminal.hasSuffix(" info hello\n") && terminal.first?.isNumber == true)
    }

    @Test func childStderrReachesTheLogUnderTheGestureName() throws {
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in CollectingLogHandler(records: records) }
        let config = try makeConfiguration([
            ("wave", .tap, [.recognized: [ActionSpec(kind: .command("echo first >&2; printf 'second' >&2"))]])
        ])
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)
        dispatcher.dispatch(GestureEvent(time: 0, gesture: 0, view: 1, state: .recognized, device: DeviceID(1)))
        #expect(try serve(loop) { records.lines.contains { $0.1 == "[wave] second" } })
        #expect(records.lines.contains { $0.1 == "[wave] first" })
    }

    @Test func sigchldSweepReapsWithoutTheLoop() throws {
        let config = try makeConfiguration([("t", .tap, [.recognized: [ActionSpec(kind: .command("exit 0"))]])])
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: Logger(label: "test"))
        dispatcher.dispatch(GestureEvent(time: 0, gesture: 0, view: 1, state: .recognized, device: DeviceID(1)))
        #expect(dispatcher.runningChildren == 1)
        // The loop is never served here: only the sweep (what SIGCHLD triggers) reaps.
        // waitid with WNOWAIT waits for the shell's exit and leaves the child to the sweep.
        let pid = try #require(dispatcher.runningChildPIDs.first)
        var info = siginfo_t()
        #expect(waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0)
        #expect(dispatcher.runningChildren == 1, "exited, not reaped yet")
        dispatcher.reapChildren()
        #expect(dispatcher.runningChildren == 0)
    }
}
