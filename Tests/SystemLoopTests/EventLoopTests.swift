import DaemonTestSupport
import LinuxSystem
import Testing

@testable import ActionDispatch
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

@Suite struct EventLoopTests {
    @Test func readableDescriptorRunsItsCallback() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let reader = FileDescriptor(fds[0])
        let writer = FileDescriptor(fds[1])
        var received: [UInt8] = []
        try loop.register(fd: reader.rawValue) { _ in _ = try? reader.readAvailable(into: &received) }
        #expect(write(writer.rawValue, "hi", 2) == 2)
        #expect(try serve(loop) { received == Array("hi".utf8) })
        loop.unregister(fd: reader.rawValue)
    }

    // Real time: the kernel's timerfd is what is tested, not the loop's arithmetic.
    @Test func deadlineFiresNotBefore() throws {
        let loop = try EventLoop()
        let armed = MonotonicClock.now() + 30_000
        var firedAt: Int64?
        loop.onDeadline = { firedAt = MonotonicClock.now() }
        try loop.setDeadline(armed)
        #expect(loop.deadline == armed)
        #expect(try serve(loop) { firedAt != nil })
        #expect(firedAt! >= armed)
        #expect(loop.deadline == nil)
    }

    // Real time: a disarmed timerfd must not wake epoll, which only a real wait shows.
    @Test func disarmedDeadlineNeverFires() throws {
        let loop = try EventLoop()
        var fired = false
        loop.onDeadline = { fired = true }
        try loop.setDeadline(MonotonicClock.now() + 20_000)
        try loop.setDeadline(nil)
        // Nothing armed: the wait times out with no descriptor ready.
        #expect(try loop.runOnce(timeoutMilliseconds: 60) == 0)
        #expect(!fired)
    }

    /// The daemon's timer while fingers move: a later deadline keeps the earlier timer
    /// (no re-arm per frame), an earlier one re-arms, nil disarms, and once the early timer
    /// has fired the next call arms the real time.
    @Test func deadlineNoLaterThanKeepsAnEarlierTimer() throws {
        let clock = ManualClock()
        let loop = try EventLoop(clock: .manual(clock))
        var fired = 0
        loop.onDeadline = { fired += 1 }
        let start = clock.now
        try loop.setDeadline(noLaterThan: start + 1_000)
        try loop.setDeadline(noLaterThan: start + 5_000)
        #expect(loop.deadline == start + 1_000)
        try loop.setDeadline(noLaterThan: start + 500)
        #expect(loop.deadline == start + 500)
        clock.advance(by: 600)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(fired == 1)
        #expect(loop.deadline == nil)
        try loop.setDeadline(noLaterThan: start + 5_000)
        #expect(loop.deadline == start + 5_000)
        try loop.setDeadline(noLaterThan: nil)
        #expect(loop.deadline == nil)
        clock.advance(by: 10_000)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(fired == 1)
    }

    @Test func pastDeadlineFiresAtOnce() throws {
        let loop = try EventLoop()
        var fired = false
        loop.onDeadline = { fired = true }
        try loop.setDeadline(0)
        #expect(try serve(loop, ceiling: 1) { fired })
    }

    @Test func signalsArriveThroughSignalfd() throws {
        // Signals are per thread here: run the loop on the thread that blocks them and
        // direct the signal at that very thread.
        let loop = try EventLoop()
        var received: [Int32] = []
        try loop.watchSignals([SIGUSR1]) { _ in Issue.record("replaced handler called") }
        try loop.watchSignals([SIGUSR2]) { received.append($0) }
        #expect(pthread_kill(pthread_self(), SIGUSR1) == 0)
        #expect(pthread_kill(pthread_self(), SIGUSR2) == 0)
        #expect(try serve(loop) { Set(received) == [SIGUSR1, SIGUSR2] }, "signals add up across calls")
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGUSR1)
        sigaddset(&unblock, SIGUSR2)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }
}
