import CLinuxShims
import GestureCore
import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// A timerfd on CLOCK_MONOTONIC armed for one absolute deadline at a time. Disarmed, it
/// never wakes the loop. On a loop with a manual clock there is no timerfd: the loop fires
/// the timer when its clock has passed the deadline.
public final class DeadlineTimer {
    private let fd: FileDescriptor?
    private weak var loop: EventLoop?
    private let fired: () -> Void
    /// The armed deadline, microseconds on the loop's clock; nil when disarmed.
    public private(set) var deadline: Microseconds?

    init(loop: EventLoop, _ fired: @escaping () -> Void) throws(SystemError) {
        self.loop = loop
        self.fired = fired
        guard case .monotonic = loop.clock else {
            fd = nil
            return
        }
        let raw = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard raw >= 0 else { throw SystemError("timerfd_create", "event loop") }
        let fd = FileDescriptor(raw)
        self.fd = fd
        try loop.register(fd: raw) { [unowned self] _ in
            var expirations: UInt64 = 0
            // Draining the expiration count re-arms readiness; EAGAIN means a stale wake.
            guard read(fd.rawValue, &expirations, 8) == 8 else { return }
            self.fire()
        }
    }

    deinit {
        if let fd { loop?.unregister(fd: fd.rawValue) }
    }

    /// Arms the timer for `time` (absolute; a time in the past fires at once), or disarms it.
    public func set(_ time: Microseconds?) {
        guard time != deadline else { return }
        deadline = time
        guard let fd else { return }
        var spec = itimerspec()
        if let time {
            // A zero it_value disarms, so a deadline at or before 0 becomes 1 ns.
            let t = max(time, 0)
            spec.it_value.tv_sec = Int(t / 1_000_000)
            spec.it_value.tv_nsec = Int(t % 1_000_000) * 1_000
            if t == 0 { spec.it_value.tv_nsec = 1 }
        }
        // Cannot fail with a valid fd and normalized values.
        timerfd_settime(fd.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    func fire() {
        deadline = nil
        fired()
    }
}
