#if canImport(Glibc)
import Glibc
#endif
import CLinuxShims
import GestureCore
import LinuxSystem
import Logging
import TouchInput

/// Runs command actions as children and looks after them: reaps each one as it exits
/// (through a pidfd, and a sweep on SIGCHLD), kills the whole process group at its timeout
/// (SIGTERM, SIGKILL after the grace), caps how many run at once, and relays their stderr
/// to the log under the gesture's name.
final class CommandRunner {
    private final class Child {
        enum State {
            case running(timeoutAt: Microseconds)
            /// SIGTERM sent; SIGKILL goes to the group at `killAt`, even if the leader is gone.
            case terminating(killAt: Microseconds)
        }
        let pid: pid_t
        let gesture: String
        var state: State
        var reaped = false
        var pidfd: FileDescriptor?

        init(pid: pid_t, gesture: String, timeoutAt: Microseconds) {
            self.pid = pid
            self.gesture = gesture
            self.state = .running(timeoutAt: timeoutAt)
        }

        var deadline: Microseconds {
            switch state {
            case .running(let t), .terminating(let t): t
            }
        }
    }

    private let loop: EventLoop
    private var logger: Logger
    private var children: [pid_t: Child] = [:]
    private var relays: [Int32: StderrRelay] = [:]
    private var timer: DeadlineTimer!
    var counters = DispatcherCounters()
    var maxChildren: Int
    var killGrace: Microseconds

    init(loop: EventLoop, maxChildren: Int, killGrace: Microseconds, logger: Logger) throws(SystemError) {
        self.loop = loop
        self.maxChildren = maxChildren
        self.killGrace = killGrace
        self.logger = logger
        timer = try loop.makeTimer { [unowned self] in self.serviceDeadlines() }
    }

    // The loop must not call back into a runner that is gone; children keep running (the
    // service's cgroup is what ends them at shutdown).
    deinit {
        for child in children.values { if let fd = child.pidfd { loop.unregister(fd: fd.rawValue) } }
        for fd in relays.keys { loop.unregister(fd: fd) }
    }

    /// Children whose process has not been reaped yet.
    var running: Int { children.values.reduce(0) { $0 + ($1.reaped ? 0 : 1) } }

    /// Starts one command; refuses (counted, logged) when `maxChildren` are running.
    func run(shell: String, command: String, environment: [String], gesture: String, timeout: Microseconds) {
        guard running < maxChildren else {
            counters.commandsRefused += 1
            logger.warning("[\(gesture)] command refused: \(maxChildren) children already running (max_children)")
            return
        }
        let spawned: ProcessSpawner.Spawned
        do {
            spawned = try ProcessSpawner.spawn(shell: shell, command: command, environment: environment)
        } catch {
            counters.spawnFailures += 1
            logger.error("[\(gesture)] cannot start command: \(error)")
            return
        }
        counters.commandsStarted += 1
        let child = Child(pid: spawned.pid, gesture: gesture, timeoutAt: MonotonicClock.now() + timeout)
        children[spawned.pid] = child
        logger.debug("[\(gesture)] started pid \(spawned.pid): \(command)")
        watchExit(of: child)
        relay(spawned.stderr, gesture: gesture)
        armTimer()
    }

    /// Reaps every child that has exited (the SIGCHLD handler calls this).
    func reapAll() {
        for child in Array(children.values) where !child.reaped { reap(child) }
    }

    /// Kills every remaining child's group at once (shutdown).
    func killAll() {
        for child in children.values { kill(-child.pid, SIGKILL) }
        reapAll()
    }

    private func watchExit(of child: Child) {
        // Without pidfd (kernels before 5.3) the SIGCHLD sweep alone reaps.
        let raw = cls_pidfd_open(child.pid)
        guard raw >= 0 else { return }
        let fd = FileDescriptor(raw)
        child.pidfd = fd
        do {
            try loop.register(fd: raw) { [unowned self, unowned child] _ in self.reap(child) }
        } catch {
            logger.warning("cannot watch pid \(child.pid): \(error)")
        }
    }

    private func relay(_ fd: FileDescriptor, gesture: String) {
        let relay = StderrRelay(fd: fd) { [logger] line in logger.notice("[\(gesture)] \(line)") }
        do {
            try loop.register(fd: fd.rawValue) { [unowned self] _ in
                if relay.drain() { self.loop.unregister(fd: fd.rawValue); self.relays[fd.rawValue] = nil }
            }
            relays[fd.rawValue] = relay
        } catch {
            logger.warning("[\(gesture)] cannot relay stderr: \(error)")
        }
    }

    private func reap(_ child: Child) {
        var status: Int32 = 0
        let rc = waitpid(child.pid, &status, WNOHANG)
        guard rc == child.pid || (rc < 0 && errno == ECHILD) else { return }
        child.reaped = true
        if let fd = child.pidfd {
            loop.unregister(fd: fd.rawValue)
            child.pidfd = nil
        }
        if rc == child.pid { report(child, status: status) }
        if case .running = child.state { children[child.pid] = nil }
        armTimer()
    }

    private func report(_ child: Child, status: Int32) {
        if cls_wifexited(status) != 0 {
            let code = cls_wexitstatus(status)
            guard code != 0 else { return logger.debug("[\(child.gesture)] pid \(child.pid) exited 0") }
            counters.commandsFailed += 1
            logger.warning("[\(child.gesture)] command exited with status \(code)")
        } else if cls_wifsignaled(status) != 0 {
            counters.commandsFailed += 1
            let signal = cls_wtermsig(status)
            logger.warning("[\(child.gesture)] command killed by signal \(signal) (\(String(cString: strsignal(signal))))")
        }
    }

    private func serviceDeadlines() {
        let now = MonotonicClock.now()
        for child in Array(children.values) where child.deadline <= now {
            switch child.state {
            case .running:
                counters.commandsTimedOut += 1
                logger.warning("[\(child.gesture)] command timed out: SIGTERM to process group \(child.pid)")
                kill(-child.pid, SIGTERM)
                child.state = .terminating(killAt: now + killGrace)
            case .terminating:
                // ESRCH: the group is already empty.
                if kill(-child.pid, SIGKILL) == 0 {
                    logger.warning("[\(child.gesture)] process group \(child.pid) outlived SIGTERM: SIGKILL")
                }
                if child.reaped { children[child.pid] = nil }
            }
        }
        armTimer()
    }

    private func armTimer() {
        timer.set(children.values.map(\.deadline).min())
    }
}
