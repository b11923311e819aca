import CLinuxShims
import GestureControl
import LinuxSystem
import TestSupport
import Testing

@testable import ActionDispatch
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// Faults from outside (docs/LIMITS.md, "Faults"): the real daemon on a real
/// recording, with the fault applied while it recognizes. Each must give a clear log line
/// and leave the recognitions as they are without the fault.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct FaultTests {
    /// Starts the daemon on the taps recording with a subscriber; returns the events the
    /// offline twin gives for it.
    private func start(_ dir: TemporaryDirectory, config text: String = TestConfig.tapAndPan()) throws
        -> (GesturedProcess, ControlClient, [JSONValue])
    {
        let config = dir.file("gestures.toml")
        try writeText(text, to: config)
        let expected = try replayJSON(config: config, recording: Recording.taps, dir: dir)
        try #require(expected.count > 3)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let subscriber = try daemon.client()
        _ = try subscriber.request(.subscribe)
        return (daemon, subscriber, expected)
    }

    /// CPU time (user + system) the process has used, in clock ticks.
    private func cpuTicks(_ pid: pid_t) -> Int {
        guard let stat = readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After "(comm)": state is field 0, utime 11, stime 12.
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// RLIMIT_NOFILE lowered under the running daemon, then a thousand clients: those past
    /// the limit are answered `busy` (not left hanging, not spun on), one warning names the
    /// limit, and the replay started meanwhile is recognized as without the fault.
    @Test func aThousandClientsPastRLIMIT_NOFILEAreRefusedAndRecognitionGoesOn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (daemon, subscriber, expected) = try start(dir)
        let control = try daemon.client()
        let limited = try runTool("/usr/bin/prlimit", ["--pid", "\(daemon.pid)", "--nofile=40:40"], dir: dir)
        try #require(limited.status == 0, "prlimit: \(limited.stderr)")
        // This process needs room for its side of a thousand connections.
        var own = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &own)
        if own.rlim_cur < 1200 {
            own.rlim_cur = min(own.rlim_max, 4096)
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &own)
        }

        let before = cpuTicks(daemon.pid)
        var clients: [FileDescriptor] = []
        for _ in 0..<1000 {
            let socket = try UnixSocket.make(datagram: false)
            try socket.setNonBlocking()
            // Non-blocking: a full backlog answers EAGAIN instead of waiting.
            _ = try? UnixSocket.connect(socket, to: daemon.socket)
            clients.append(socket)
        }
        _ = try control.request(.replayStart)
        let streamed = try readEvents(subscriber, count: expected.count)
        #expect(streamed.map(\.withoutTime) == expected.map(\.withoutTime), "\(daemon.log)")
        // The refused ones got a reply that says why.
        var busy = 0
        for client in clients {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = read(client.rawValue, &buffer, buffer.count)
            if n > 0, String(decoding: buffer[..<n], as: UTF8.self).contains("out of file descriptors") { busy += 1 }
        }
        #expect(busy > 0, "no client was told: \(daemon.log)")
        // Not spinning on the listener: well under a second of CPU for all of it.
        let used = cpuTicks(daemon.pid) - before
        #expect(used < sysconf(Int32(_SC_CLK_TCK)), "gestured used \(used) ticks")
        clients.removeAll()

        let warnings = daemon.log.split(separator: "\n").filter { $0.contains("out of file descriptors") }
        #expect(warnings.count == 1 && warnings[0].contains("RLIMIT_NOFILE 40"), "\(daemon.log)")
        // Not a line per failed accept (without the spare descriptor: 100,000 in 2 s).
        #expect(daemon.log.split(separator: "\n").count < 100, "\(daemon.log.suffix(2000))")
        #expect(daemon.isRunning)
        // Once they are gone, clients are served again and the run is summed up.
        #expect(eventually { (try? daemon.status()) != nil }, "\(daemon.log)")
        #expect(daemon.log.contains("connections were refused while out of file descriptors"), "\(daemon.log)")
        try daemon.stop()
    }

    /// A socket directory gestured may not write (a read-only or foreign runtime dir): the
    /// start fails at once with the path, the reason and the way out.
    @Test func anUnwritableSocketDirectoryIsAClearStartupError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let locked = dir.file("locked")
        try #require(mkdir(locked, 0o555) == 0)
        chmod(dir.path, 0o755)
        chmod(config, 0o644)
        // Root writes anywhere: run it as nobody, for whom the directory is read-only.
        let asUser = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
        let run = try runTool(
            "/usr/bin/timeout",
            ["10"] + asUser + [
                Binary.gestured, "--config", config,
                "--socket", locked + "/run/ctl.sock",
            ], dir: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains(locked + "/run") && run.stderr.contains("Permission denied"), "\(run.stderr)")
    }

    /// Signals landing while frames are replayed: SIGCHLD (handled, nothing to reap),
    /// SIGUSR1/SIGUSR2 (logged and ignored; their default action would end the daemon) and
    /// SIGSTOP/SIGCONT pairs, which make a waiting epoll_wait return EINTR even though every
    /// handled signal is blocked. The recognitions are those of a quiet run.
    @Test func aSignalStormWhileReplayingChangesNoRecognition() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (daemon, subscriber, expected) = try start(dir)
        _ = try daemon.request(.replayStart)
        // Real time: signals from the kernel, into the real daemon while it works.
        let end = MonotonicClock.now() + 2_500_000
        var sent = 0
        while MonotonicClock.now() < end {
            kill(daemon.pid, SIGCHLD)
            if sent % 500 == 0 { kill(daemon.pid, sent % 1000 == 0 ? SIGUSR1 : SIGUSR2) }
            if sent % 50 == 0 {
                kill(daemon.pid, SIGSTOP)
                usleep(200)
                kill(daemon.pid, SIGCONT)
            }
            sent += 1
            usleep(100)
        }
        let streamed = try readEvents(subscriber, count: expected.count)
        #expect(streamed.map(\.withoutTime) == expected.map(\.withoutTime), "after \(sent) signals\n\(daemon.log)")
        #expect(daemon.isRunning && !daemon.log.contains("epoll_wait"), "\(daemon.log)")
        #expect(daemon.log.contains("SIGUSR1 ignored") && daemon.log.contains("SIGUSR2 ignored"), "\(daemon.log)")
        try daemon.stop()
    }

    /// The config rewritten in place (truncated, then written in pieces) while reloads
    /// arrive: each reload takes a whole file or refuses a partial one naming the file, the
    /// daemon keeps running, and once the writes settle a reload takes the final file and
    /// the replay is recognized as the offline twin recognizes it.
    @Test func aConfigChangingUnderReloadsIsTakenWholeOrRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let small = TestConfig.tapAndPan()
        let large = small + "[gesture.hold]\ntype = \"long-press\"\nmin_duration = \"600ms\"\n"
        let (daemon, subscriber, expected) = try start(dir, config: large)
        let config = dir.file("gestures.toml")
        // A writer that truncates and writes the file in two pieces, as an editor without
        // atomic saves does, over and over until told to stop; it ends with the whole file.
        let stop = dir.file("stop")
        let script = """
            while [ ! -e '\(stop)' ]; do
              printf '%s' "$A" > '\(config)'; printf '%s' "$B1" > '\(config)'; printf '%s' "$B2" >> '\(config)'
            done
            printf '%s%s' "$B1" "$B2" > '\(config)'
            """
        let half = large.index(large.startIndex, offsetBy: large.count - 20)
        let writer = try ChildProcessHandle(
            ["/bin/sh", "-c", script],
            environment: ["A": small, "B1": String(large[..<half]), "B2": String(large[half...])])
        var taken = 0
        var refused = 0
        for _ in 0..<60 {
            do {
                _ = try daemon.request(.reload)
                taken += 1
            } catch ControlClientError.daemon(let error) {
                refused += 1
                #expect(error.message.contains("gestures.toml"), "\(error.message)")
            }
        }
        try writeText("", to: stop)
        #expect(eventually { !writer.isRunning } && writer.status == 0)
        #expect(taken + refused == 60 && daemon.isRunning, "\(daemon.log)")
        _ = try daemon.request(.reload)
        let names = try daemon.status().gestures.map(\.name)
        #expect(names == ["tap", "drag", "hold"], "after \(taken) taken and \(refused) refused reloads")
        _ = try daemon.request(.replayStart)
        let streamed = try readEvents(subscriber, count: expected.count)
        #expect(streamed.map(\.withoutTime) == expected.map(\.withoutTime), "\(daemon.log)")
        try daemon.stop()
    }
}

/// A child process run with `posix_spawn` and reaped by `isRunning`.
final class ChildProcessHandle {
    let pid: pid_t
    private(set) var status: Int32 = -1

    init(_ argv: [String], environment: [String: String]) throws {
        let env = ProcessEnvironment.current().merging(environment) { $1 }
        let args = argv.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (args + envp).forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, argv[0], nil, nil, args, envp)
        guard rc == 0 else { throw CLIError("cannot run \(argv[0]): \(String(cString: strerror(rc)))") }
        self.pid = pid
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
        }
    }

    var isRunning: Bool {
        guard status < 0 else { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        status = (raw >> 8) & 0xff
        return false
    }
}
