import CLinuxShims
import GestureCore
import LinuxSystem
import Logging

#if canImport(Glibc)
import Glibc
import SystemLoop
#endif

/// Runs command actions as children and looks after everything they start: reaps each
/// process as it exits (through a pidfd, and a sweep on SIGCHLD), kills the whole process
/// group at its timeout (SIGTERM, SIGKILL after the grace), caps how many processes live
/// at once, and relays their stderr to the log under the gesture's name.
///
/// With `adoptsOrphans` (gestured is a child subreaper, `PR_SET_CHILD_SUBREAPER`), what a
/// command leaves running when its shell exits (`sleep 30 & exit 0`, even `setsid`) comes
/// back to gestured as its child: it is counted against `max_children`, killed at the
/// command's timeout and at shutdown, and reaped. What double-forks into another
/// subreaper's care escapes; the service's cgroup (`KillMode=control-group`) contains it.
final class CommandRunner {
    /// One command firing: its process group (led by the shell) and its live processes.
    private final class Run {
        enum State {
            case running(timeoutAt: Microseconds)
            /// SIGTERM sent; SIGKILL goes to the group at `killAt`, even if the leader is gone.
            case terminating(killAt: Microseconds)
            /// SIGKILL sent, yet something of the group lingers (uninterruptible sleep, or a
            /// zombie another parent does not reap): looked at again at `recheckAt`, slowly.
            case killed(recheckAt: Microseconds)
        }
        /// The process group, the shell's pid.
        let group: pid_t
        let gesture: String
        var state: State
        /// Its processes that are gestured's children and not reaped: the shell, and what
        /// was adopted from it.
        var members: Set<pid_t> = []
        var relay: FileDescriptor?
        /// Whether lingering after SIGKILL was logged (it is said once).
        var lingerLogged = false

        init(group: pid_t, gesture: String, timeoutAt: Microseconds) {
            self.group = group
            self.gesture = gesture
            self.state = .running(timeoutAt: timeoutAt)
        }

        var deadline: Microseconds {
            switch state {
            case .running(let t), .terminating(let t), .killed(let t): t
            }
        }
    }

    /// How often a group that outlived SIGKILL is looked at again.
    static let lingerRecheck: Microseconds = 5_000_000

    private let loop: EventLoop
    private var logger: Logger
    private var runs: [pid_t: Run] = [:]
    /// Each live child's run.
    private var owners: [pid_t: Run] = [:]
    private var pidfds: [pid_t: FileDescriptor] = [:]
    private var relays: [Int32: StderrRelay] = [:]
    private var timer: DeadlineTimer!
    private var refusedRun = FailureRun()
    var counters = DispatcherCounters()
    var maxChildren: Int
    var killGrace: Microseconds
    /// The timeout of an orphan that cannot be told apart from others' (`command_timeout`).
    var orphanTimeout: Microseconds = 10_000_000
    /// True in gestured, which is a child subreaper: children it did not start are what
    /// its commands left behind. (A test process has other children of its own.)
    var adoptsOrphans = false

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
        for fd in pidfds.values { loop.unregister(fd: fd.rawValue) }
        for fd in relays.keys { loop.unregister(fd: fd) }
    }

    /// Live processes started by commands (shells, and what they left behind).
    var running: Int { owners.count }

    /// Their pids (a test waits for one to exit, without reaping it, through `waitid`).
    var runningPIDs: [pid_t] { Array(owners.keys) }

    /// Starts one command; refuses (counted, logged once per run of refusals) when
    /// `maxChildren` processes are alive.
    func run(shell: String, command: String, environment: [String], gesture: String, timeout: Microseconds) {
        adoptOrphans(into: nil)
        guard running < maxChildren else {
            counters.commandsRefused += 1
            if refusedRun.fail() {
                logger.warning(
                    "[\(gesture)] command refused: \(maxChildren) processes of commands alive (max_children); refusing until one ends",
                    metadata: .journal(.limitReached, gesture: gesture, limit: .maxChildren))
            }
            return
        }
        if let count = refusedRun.end() {
            logger.warning("\(count) commands were refused while \(maxChildren) processes were alive (max_children)")
        }
        let spawned: ProcessSpawner.Spawned
        do {
            // The way actions must run: nothing of the daemon's signal state, descriptors
            // or process group, stdin from /dev/null, stderr into a pipe the loop reads.
            spawned = try ProcessSpawner.spawn(
                shell, arguments: ["-c", command],
                options: .init(stdin: .devNull, stderr: .nonBlockingPipe, isolated: true, environment: environment))
        } catch {
            counters.spawnFailures += 1
            logger.error("[\(gesture)] cannot start command: \(error)", metadata: .journal(.actionFailed, gesture: gesture))
            return
        }
        counters.commandsStarted += 1
        let run = Run(group: spawned.pid, gesture: gesture, timeoutAt: loop.now() + timeout)
        runs[spawned.pid] = run
        logger.debug("[\(gesture)] started pid \(spawned.pid): \(command)")
        add(spawned.pid, to: run)
        if let stderr = spawned.stderr { relay(stderr, for: run) }
        armTimer()
    }

    /// Reaps every child that has exited (the SIGCHLD handler calls this), and takes in
    /// what exiting shells left behind.
    func reapAll() {
        for pid in Array(owners.keys) { reap(pid) }
        adoptOrphans(into: nil)
    }

    /// Kills every remaining process at once (shutdown).
    func killAll() {
        adoptOrphans(into: nil)
        for run in runs.values { signal(run, SIGKILL) }
        reapAll()
    }

    private func add(_ pid: pid_t, to run: Run) {
        run.members.insert(pid)
        owners[pid] = run
        // Without pidfd (kernels before 5.3) the SIGCHLD sweep alone reaps.
        let raw = cls_pidfd_open(pid)
        guard raw >= 0 else { return }
        let fd = FileDescriptor(raw)
        do {
            try loop.register(fd: raw) { [unowned self] _ in self.reap(pid) }
            pidfds[pid] = fd
        } catch {
            logger.warning("cannot watch pid \(pid): \(error)")
        }
    }

    /// Children gestured did not start are orphans of its commands, handed to it as their
    /// subreaper. Each joins the run of its process group, else `context` (the run whose
    /// process just exited), else a run of its own with `orphanTimeout`.
    private func adoptOrphans(into context: Run?) {
        guard adoptsOrphans else { return }
        for pid in ChildList.current() where owners[pid] == nil {
            let group = getpgid(pid)
            let run: Run
            if let known = runs[group] ?? context {
                run = known
            } else {
                run = Run(group: group > 0 ? group : pid, gesture: "?", timeoutAt: loop.now() + orphanTimeout)
                runs[run.group] = run
            }
            logger.debug("[\(run.gesture)] took in pid \(pid), left behind by its command")
            add(pid, to: run)
        }
    }

    private func relay(_ fd: FileDescriptor, for run: Run) {
        let gesture = run.gesture
        let relay = StderrRelay(fd: fd) { [logger] line in
            logger.notice("[\(gesture)] \(line)", metadata: .journal(.commandOutput, gesture: gesture))
        }
        do {
            try loop.register(fd: fd.rawValue) { [unowned self, weak run] _ in
                if relay.drain() { self.closeRelay(of: run, fd: fd.rawValue) }
            }
            relays[fd.rawValue] = relay
            run.relay = fd
        } catch {
            logger.warning("[\(gesture)] cannot relay stderr: \(error)")
        }
    }

    /// Stops relaying: at end of file, or at the timeout (what a background process still
    /// holds open must not keep a descriptor of the daemon's).
    private func closeRelay(of run: Run?, fd: Int32) {
        guard relays[fd] != nil else { return }
        loop.unregister(fd: fd)
        relays[fd] = nil
        if run?.relay?.rawValue == fd { run?.relay = nil }
    }

    private func reap(_ pid: pid_t) {
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        guard rc == pid || (rc < 0 && errno == ECHILD), let run = owners[pid] else { return }
        if let fd = pidfds.removeValue(forKey: pid) { loop.unregister(fd: fd.rawValue) }
        owners[pid] = nil
        run.members.remove(pid)
        if rc == pid && pid == run.group { report(run, status: status) }
        // An exiting shell hands its children over now: they join its run.
        adoptOrphans(into: run)
        if run.members.isEmpty { finish(run) }
        armTimer()
    }

    /// No process of the run is gestured's child any more: the run is over, unless a
    /// timed-out group still has members (they are killed and checked on, slowly).
    private func finish(_ run: Run) {
        if case .running = run.state {} else if kill(-run.group, 0) == 0 { return }
        runs[run.group] = nil
        if let fd = run.relay {
            // What the last writer left is logged before the relay closes.
            _ = relays[fd.rawValue]?.drain()
            closeRelay(of: run, fd: fd.rawValue)
        }
    }

    private func report(_ run: Run, status: Int32) {
        switch ProcessSpawner.Exit(waitStatus: status) {
        case .exited(0):
            logger.debug("[\(run.gesture)] pid \(run.group) exited 0")
        case .exited(let code):
            counters.commandsFailed += 1
            logger.warning("[\(run.gesture)] command exited with status \(code)", metadata: .journal(.actionFailed, gesture: run.gesture))
        case let exit?:
            counters.commandsFailed += 1
            logger.warning("[\(run.gesture)] command \(exit)", metadata: .journal(.actionFailed, gesture: run.gesture))
        case nil:
            break
        }
    }

    /// Signals the run's process group and each of its processes (one that left the group
    /// with `setsid`, with its own group). True when something was there to signal.
    @discardableResult
    private func signal(_ run: Run, _ number: Int32) -> Bool {
        var found = kill(-run.group, number) == 0
        for pid in run.members where getpgid(pid) != run.group {
            if kill(pid, number) == 0 { found = true }
            if getpgid(pid) == pid { kill(-pid, number) }
        }
        return found
    }

    private func serviceDeadlines() {
        let now = loop.now()
        for run in Array(runs.values) where run.deadline <= now {
            switch run.state {
            case .running:
                counters.commandsTimedOut += 1
                logger.warning(
                    "[\(run.gesture)] command timed out: SIGTERM to process group \(run.group)",
                    metadata: .journal(.actionTimedOut, gesture: run.gesture))
                signal(run, SIGTERM)
                if let fd = run.relay { closeRelay(of: run, fd: fd.rawValue) }
                run.state = .terminating(killAt: now + killGrace)
            case .terminating:
                // ESRCH: the group is already empty.
                if signal(run, SIGKILL) {
                    logger.warning("[\(run.gesture)] process group \(run.group) outlived SIGTERM: SIGKILL")
                }
                run.state = .killed(recheckAt: now + Self.lingerRecheck)
                if run.members.isEmpty { finish(run) }
            case .killed:
                // What outlives SIGKILL is looked at every few seconds, not spun on, and said once.
                if signal(run, SIGKILL) && !run.lingerLogged {
                    run.lingerLogged = true
                    logger.warning(
                        "[\(run.gesture)] process group \(run.group) still has processes after SIGKILL (uninterruptible sleep, or zombies nobody reaps); checking every \(Self.lingerRecheck / 1_000_000) s"
                    )
                }
                run.state = .killed(recheckAt: now + Self.lingerRecheck)
                if run.members.isEmpty { finish(run) }
            }
        }
        armTimer()
    }

    private func armTimer() {
        timer.set(runs.values.map(\.deadline).min())
    }
}

/// The children of this process, from `/proc/self/task/*/children` (CONFIG_PROC_CHILDREN).
/// It runs before every command start, between the event and the command: bytes read into
/// one buffer and parsed in place, no text made per thread or pid.
enum ChildList {
    static func current() -> [pid_t] {
        var pids: [pid_t] = []
        guard let tasks = opendir("/proc/self/task") else { return [] }
        defer { closedir(tasks) }
        var text: [UInt8] = []
        while let entry = readdir(tasks) {
            // The threads' entries are their ids; "." and ".." are not opened.
            guard let tid = withUnsafeBytes(of: entry.pointee.d_name, { number($0.prefix { $0 != 0 }) }) else { continue }
            let raw = open("/proc/self/task/\(tid)/children", O_RDONLY | O_CLOEXEC)
            guard raw >= 0 else { continue }
            let file = FileDescriptor(raw)
            text.removeAll(keepingCapacity: true)
            while let n = try? file.readAvailable(into: &text), n > 0 {}
            // "12 345 ": each pid followed by a space.
            var start = 0
            for end in 0...text.count where end == text.count || text[end] == UInt8(ascii: " ") {
                if let pid = number(text[start..<end]) { pids.append(pid) }
                start = end + 1
            }
        }
        return pids
    }

    /// The value of a run of decimal digits; nil for anything else (or nothing).
    private static func number(_ digits: some Collection<UInt8>) -> pid_t? {
        guard !digits.isEmpty, digits.count < 10 else { return nil }
        var value: pid_t = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + pid_t(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
