import ActionDispatch
import GestureControl
import GestureCore
import SystemLoop
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Polls `condition` every 10 ms until it holds or `ceiling` seconds pass; true when it held.
/// Real time: the daemon is another process, with its own clock.
func eventually(ceiling seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let end = MonotonicClock.now() + Microseconds(seconds * 1_000_000)
    while try !condition() {
        guard MonotonicClock.now() < end else { return false }
        usleep(10_000)
    }
    return true
}

/// The package's executables, beside the test bundle.
enum Binary {
    static let gestured = ChildProcess.buildDirectory + "/gestured"
    static let gesturectl = ChildProcess.buildDirectory + "/gesturectl"
}

/// A real `gestured` started by a test (output in `log`), stopped by `stop()` or, if the
/// test failed first, killed when it goes away.
final class GesturedProcess {
    let pid: pid_t
    let socket: String
    let logPath: String
    private var exited = false

    /// Starts `gestured --config CONFIG --socket DIR/ctl.sock [--replay FILE]` and waits
    /// until it answers on its socket. Its standard input is /dev/null, or `standardInput`.
    init(
        config: String, dir: TemporaryDirectory, replay: String? = nil, speed: Double = 1,
        arguments more: [String] = [], environment extra: [String: String] = [:], standardInput: Int32? = nil
    ) throws {
        socket = dir.file("ctl.sock")
        logPath = dir.file("gestured.log")
        var arguments = ["--config", config, "--socket", socket]
        if let replay { arguments += ["--replay", replay, "--replay-speed", "\(speed)"] }
        arguments += more
        try #require(access(Binary.gestured, X_OK) == 0, "build gestured first (swift build --build-tests): \(Binary.gestured)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Not under the test runner's systemd, if any.
        let environment = ProcessEnvironment.current().filter { !["NOTIFY_SOCKET", "WATCHDOG_USEC", "GESTURED_SOCKET"].contains($0.key) }
            .merging(extra) { $1 }
        let argv = ([Binary.gestured] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, Binary.gestured, &actions, nil, argv, envp)
        try #require(rc == 0, "cannot start gestured: \(String(cString: strerror(rc)))")
        self.pid = pid
        let up = eventually { (try? ControlClient(candidates: [socket], timeout: 5).request(.status)) != nil || !isRunning }
        try #require(up && isRunning, "gestured did not come up:\n\(log)")
    }

    deinit {
        guard !exited else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    var log: String { readText(logPath) ?? "" }

    /// False once it exited (reaps it).
    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exited = true
            exitStatus = status
        }
        return !exited
    }

    private(set) var exitStatus: Int32 = 0

    func client(timeout: Double = 10) throws -> ControlClient { try ControlClient(candidates: [socket], timeout: timeout) }

    func request(_ command: ControlCommand) throws -> JSONValue { try client().request(command) }

    /// The `status` reply, read as gesturectl reads it (`DaemonStatus(json:)`).
    func status() throws -> DaemonStatus { DaemonStatus(json: try request(.status)) }

    /// SIGTERM, then checks a clean exit: status 0 and the socket removed.
    func stop() throws {
        kill(pid, SIGTERM)
        #expect(eventually { !isRunning }, "gestured did not stop on SIGTERM")
        #expect(exitStatus & 0x7f == 0 && (exitStatus >> 8) & 0xff == 0, "exit status \(exitStatus)\n\(log)")
        #expect(access(socket, F_OK) != 0, "socket left behind")
    }

    /// Context switches of all its threads so far.
    func contextSwitches() -> Int {
        var total = 0
        guard let dir = opendir("/proc/\(pid)/task") else { return -1 }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard Int(name) != nil, let status = readText("/proc/\(pid)/task/\(name)/status") else { continue }
            for line in status.split(separator: "\n") where line.hasSuffix("ctxt_switches") == false && line.contains("ctxt_switches:") {
                total += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
        }
        return total
    }

    /// Processes whose parent is the daemon (any zombie among them is a child not reaped).
    func children() -> [(pid: Int, state: String)] {
        var result: [(Int, String)] = []
        guard let dir = opendir("/proc") else { return [] }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let child = Int(name), let stat = readText("/proc/\(name)/stat"),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after "(comm)": state, ppid, ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int(fields[1]) == Int(pid) { result.append((child, String(fields[0]))) }
        }
        return result
    }
}

/// Writes `text` to `path`.
func writeText(_ text: String, to path: String) throws {
    guard let file = fopen(path, "w") else { throw CLIError("cannot write \(path)") }
    defer { fclose(file) }
    _ = text.withCString { fputs($0, file) }
}

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a binary to completion: exit status, stdout, stderr.
func runTool(_ path: String, _ arguments: [String], dir: TemporaryDirectory) throws -> (status: Int32, stdout: String, stderr: String) {
    let err = dir.file("tool.err")
    let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
    let result = try ChildProcess.run("/bin/sh", arguments: ["-c", "exec '\(path)' \(quoted) 2> '\(err)'"])
    return (result.status, result.output, readText(err) ?? "")
}
