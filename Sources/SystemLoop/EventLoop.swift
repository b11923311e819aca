import CLinuxShims
import GestureCore
import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// One epoll loop on one thread: file descriptors with callbacks, timerfd deadlines and
/// signals through a signalfd. No threads, no Dispatch; with nothing armed it sleeps.
public final class EventLoop {
    /// Readiness as epoll reports it.
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: EPOLLIN.rawValue)
        public static let writable = Events(rawValue: EPOLLOUT.rawValue)
        public static let error = Events(rawValue: EPOLLERR.rawValue)
        public static let hangup = Events(rawValue: EPOLLHUP.rawValue | EPOLLRDHUP.rawValue)
    }

    public typealias Handler = (Events) -> Void

    private struct Registration {
        var generation: UInt32
        var handler: Handler
    }

    private let epoll: FileDescriptor
    /// Indexed by fd (small numbers): no hashing on every wake.
    private var registrations: [Registration?] = []
    // Tells a stale readiness report for a closed-and-reused fd number from a fresh one.
    private var generation: UInt32 = 0
    private var stopped = false
    private var mainTimer: DeadlineTimer?
    private var signalFD: FileDescriptor?
    private var signalSet = sigset_t()
    private var signalHandler: ((Int32) -> Void)?
    // Reused by every wait so that serving the loop allocates nothing.
    private var readyData = [UInt64](repeating: 0, count: 32)
    private var readyEvents = [UInt32](repeating: 0, count: 32)
    /// The timers of a loop on a manual clock, which it fires itself (weakly held: each
    /// belongs to its owner).
    private var manualTimers: [WeakTimer] = []

    private struct WeakTimer {
        weak var timer: DeadlineTimer?
    }

    /// Where `now()` and the timers' deadlines come from.
    public let clock: LoopClock

    /// Called when the deadline set with `setDeadline` passes.
    public var onDeadline: (() -> Void)?

    public init(clock: LoopClock = .monotonic) throws(SystemError) {
        self.clock = clock
        let raw = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard raw >= 0 else { throw SystemError("epoll_create1", "event loop") }
        epoll = FileDescriptor(raw)
    }

    /// Watches `fd` (which the caller keeps open) for `events`; errors and hangups are
    /// always reported.
    public func register(fd: Int32, events: Events = .readable, _ handler: @escaping Handler) throws(SystemError) {
        generation &+= 1
        let data = UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
        guard cls_epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd, events.rawValue, data) == 0 else {
            throw SystemError("epoll_ctl(ADD)", "fd \(fd)")
        }
        if registrations.count <= Int(fd) { registrations += repeatElement(nil, count: Int(fd) + 1 - registrations.count) }
        registrations[Int(fd)] = Registration(generation: generation, handler: handler)
    }

    private func registration(_ fd: Int32) -> Registration? {
        fd >= 0 && Int(fd) < registrations.count ? registrations[Int(fd)] : nil
    }

    /// Changes the events watched on a registered fd.
    public func modify(fd: Int32, events: Events) {
        guard let registration = registration(fd) else { return }
        let data = UInt64(registration.generation) << 32 | UInt64(UInt32(bitPattern: fd))
        cls_epoll_ctl(epoll.rawValue, EPOLL_CTL_MOD, fd, events.rawValue, data)
    }

    /// Stops watching `fd`; call before closing it.
    public func unregister(fd: Int32) {
        guard registration(fd) != nil else { return }
        registrations[Int(fd)] = nil
        cls_epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd, 0, 0)
    }

    /// The time on the loop's clock: what its timers' deadlines are measured against.
    public func now() -> Microseconds { clock.now() }

    /// Makes a further independent deadline timer on this loop.
    public func makeTimer(_ fired: @escaping () -> Void) throws(SystemError) -> DeadlineTimer {
        let timer = try DeadlineTimer(loop: self, fired)
        if case .manual = clock { manualTimers.append(WeakTimer(timer: timer)) }
        return timer
    }

    /// Arms the loop's own timer for an absolute time on its clock (the engine's
    /// `nextDeadline`), or disarms it with nil. `onDeadline` runs when it passes.
    public func setDeadline(_ time: Microseconds?) throws(SystemError) {
        if mainTimer == nil {
            mainTimer = try makeTimer { [unowned self] in self.onDeadline?() }
        }
        mainTimer?.set(time)
    }

    /// `setDeadline`, except that a deadline already armed earlier stays armed: with fingers
    /// down the pipeline's next deadline moves later on most frames (a still contact's
    /// stuck timer restarts as it moves), and re-arming the timerfd for each move is a
    /// system call per frame. The early wake finds nothing due, and the caller arms the
    /// real time then. nil disarms at once, so that an idle loop keeps no timer.
    public func setDeadline(noLaterThan time: Microseconds?) throws(SystemError) {
        if let time, let armed = deadline, armed <= time { return }
        try setDeadline(time)
    }

    /// The deadline armed with `setDeadline`, if any.
    public var deadline: Microseconds? { mainTimer?.deadline }

    /// Delivers `signals` through a signalfd to `handler` (which replaces an earlier one;
    /// the signals add up). Blocks them on the calling thread, which must be the one that
    /// runs the loop (the daemon has only one).
    public func watchSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) throws(SystemError) {
        if signalFD == nil { sigemptyset(&signalSet) }
        for signo in signals { sigaddset(&signalSet, signo) }
        guard pthread_sigmask(SIG_BLOCK, &signalSet, nil) == 0 else { throw SystemError("pthread_sigmask", "event loop") }
        let raw = signalfd(signalFD?.rawValue ?? -1, &signalSet, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard raw >= 0 else { throw SystemError("signalfd", "event loop") }
        signalHandler = handler
        guard signalFD == nil else { return }
        let fd = FileDescriptor(raw)
        signalFD = fd
        try register(fd: raw) { [unowned self] _ in
            var info = signalfd_siginfo()
            let size = MemoryLayout<signalfd_siginfo>.size
            while read(fd.rawValue, &info, size) == size {
                self.signalHandler?(Int32(info.ssi_signo))
            }
        }
    }

    /// Runs until `stop()`.
    public func run() throws(SystemError) {
        stopped = false
        while !stopped { try runOnce(timeoutMilliseconds: -1) }
    }

    /// Ends `run()` after the current callback returns.
    public func stop() { stopped = true }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and serves what became ready.
    /// Returns the number of ready descriptors (on a manual clock, with the timers fired).
    @discardableResult
    public func runOnce(timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        // A manual clock's passed deadlines are due as a timerfd's would be: served this turn.
        let fired = firePassedManualTimers()
        let n = cls_epoll_wait(epoll.rawValue, &readyData, &readyEvents, 32, fired > 0 ? 0 : timeoutMilliseconds)
        if n < 0 {
            if errno == EINTR { return fired }
            throw SystemError("epoll_wait", "event loop")
        }
        for i in 0..<Int(n) {
            let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: readyData[i]))
            let generation = UInt32(truncatingIfNeeded: readyData[i] >> 32)
            // An earlier callback of this round may have unregistered or replaced it.
            guard let registration = registration(fd), registration.generation == generation else { continue }
            registration.handler(Events(rawValue: readyEvents[i]))
        }
        return Int(n) + fired
    }

    /// Fires, earliest first, the timers whose deadline a manual clock has passed (each
    /// once: one that re-arms in the past fires on the next turn, as a timerfd would).
    /// Returns how many fired.
    private func firePassedManualTimers() -> Int {
        guard case .manual(let clock) = clock else { return 0 }
        manualTimers.removeAll { $0.timer == nil }
        let due = manualTimers.compactMap(\.timer).filter { ($0.deadline ?? .max) <= clock.now }
        for timer in due.sorted(by: { $0.deadline! < $1.deadline! }) where (timer.deadline ?? .max) <= clock.now {
            timer.fire()
        }
        return due.count
    }
}
