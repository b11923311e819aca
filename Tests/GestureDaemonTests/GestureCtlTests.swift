import ConfigModel
import DaemonTestSupport
import GestureControl
import GestureCore
import LinuxSystem
import Logging
import TestSupport
import Testing

@testable import ActionDispatch
@testable import GestureDaemon
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// The real `gesturectl` binary (built beside the test bundle) against a real server
/// served by this test's loop.
@Suite struct GestureCtlTests {
    private final class Handler: ControlHandler {
        private(set) var handled: [String] = []
        func handle(_ request: DaemonRequest, from peer: ControlPeer) -> ControlReply {
            handled.append("\(request)")
            return switch request {
            case .status: .success(status)
            case .reload:
                .failure(ControlError(code: "reload-failed", message: "gestures.toml:4:1: unknown key 'tapz'; keeping the running config"))
            default: .success(.array([]))
            }
        }
        var status: JSONValue {
            var status = DaemonStatus()
            status.version = "9.9"
            status.uptime = 61
            var panel = DeviceStatus(name: "Panel", path: "/dev/input/event7", calibration: "none")
            panel.values[DeviceMetrics.contacts] = 1
            status.devices = [panel]
            status.refused[RefusalMetrics.connections] = 3
            status.refused[RefusalMetrics.requestsTooLarge] = 1
            status.refused[RefusalMetrics.unadvertisedEvents] = 7
            return status.json
        }
    }

    private struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `gesturectl` beside the test bundle (`swift build --build-tests` builds it).
    private static var binary: String { ChildProcess.buildDirectory + "/gesturectl" }

    /// Runs gesturectl while serving `loop`, until it exits (or `until` holds, then it is
    /// killed, for `monitor`).
    private func gesturectl(
        _ arguments: String, loop: EventLoop, dir: TemporaryDirectory, runner: String = "",
        whileRunning: () -> Void = {}, until: (() -> Bool)? = nil
    ) throws -> Run {
        let binary = GestureCtlTests.binary
        try #require(access(binary, X_OK) == 0, "build gesturectl first (swift build --build-tests): \(binary)")
        let out = dir.file("out")
        let err = dir.file("err")
        let spawned = try ProcessSpawner.spawn(
            "/bin/sh", arguments: ["-c", "exec \(runner)'\(binary)' \(arguments) > '\(out)' 2> '\(err)'"],
            options: .init(stdin: .devNull, isolated: true, environment: ["PATH=/usr/bin:/bin"]))
        var status: Int32 = 0
        var exited = false
        try serve(loop) {
            whileRunning()
            if let until, until() { kill(spawned.pid, SIGTERM) }
            exited = waitpid(spawned.pid, &status, WNOHANG) == spawned.pid
            return exited
        }
        if !exited {
            kill(spawned.pid, SIGKILL)
            waitpid(spawned.pid, &status, 0)
            Issue.record("gesturectl \(arguments) did not finish")
        }
        return Run(status: status, stdout: readText(out) ?? "", stderr: readText(err) ?? "")
    }

    @Test func statusTableAndJSON() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = Handler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: Logger(label: "test"))
        let table = try gesturectl("status --socket '\(server.path)'", loop: loop, dir: dir)
        #expect(table.status == 0)
        #expect(table.stdout.contains("version:     9.9\n"))
        #expect(table.stdout.contains("uptime:      1m 1s\n"))
        #expect(table.stdout.contains("  Panel  /dev/input/event7  1"))
        // The refusal counters, so an operator sees them without reading the journal.
        #expect(table.stdout.contains("refused at a limit (docs/LIMITS.md)\n  connections:         3\n"), "\(table.stdout)")
        #expect(table.stdout.contains("  unadvertised events: 7\n"), "\(table.stdout)")
        let json = try gesturectl("status --json --socket '\(server.path)'", loop: loop, dir: dir)
        #expect(json.status == 0)
        #expect(try JSONParser.parse(json.stdout.utf8.dropLast()) == handler.status)
    }

    @Test func reloadFailureAndAbsentDaemonAreShortErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = Handler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: Logger(label: "test"))
        let reload = try gesturectl("reload --socket '\(server.path)'", loop: loop, dir: dir)
        #expect(exitStatus(reload.status) == 1)
        #expect(reload.stderr == "Error: gestured: gestures.toml:4:1: unknown key 'tapz'; keeping the running config\n")
        let absent = try gesturectl("status --socket '\(dir.file("none.sock"))'", loop: loop, dir: dir)
        #expect(exitStatus(absent.status) == 1)
        #expect(absent.stderr == "Error: gestured is not running: no socket at \(dir.file("none.sock")) (start it, or pass --socket)\n")
    }

    /// With every connection taken (and none idle long enough to make room), gesturectl
    /// reads the daemon's `busy` reply instead of reporting "send failed: Broken pipe".
    @Test func aFullTableSaysBusy() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = Handler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: Logger(label: "test"))
        server.evictAfter = 60_000_000
        var holders: [FileDescriptor] = []
        for _ in 0..<ControlServer.maximumConnections {
            let fd = try UnixSocket.make(datagram: false)
            try UnixSocket.connect(fd, to: server.path)
            holders.append(fd)
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        try serve(loop) { server.status.values[ControlMetrics.connections] == Double(ControlServer.maximumConnections) }
        let busy = try gesturectl("status --socket '\(server.path)'", loop: loop, dir: dir)
        #expect(exitStatus(busy.status) == 1)
        #expect(busy.stderr == "Error: gestured is busy (\(ControlServer.maximumConnections) connections)\n", "\(busy.stderr)")
        #expect(server.refusedConnections >= 1)
    }

    /// A user the socket refuses is told which group to join, except group root (a daemon
    /// started by root with no socket_group: root's group is never the advice). As root,
    /// gesturectl runs as nobody (setpriv); as anyone else, the socket's mode shuts its
    /// owner out too.
    @Test func permissionDeniedNamesTheGroupToJoin() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        chmod(dir.path, 0o755)
        let loop = try EventLoop()
        let asRoot = getuid() == 0
        let server = try ControlServer(
            loop: loop, path: dir.file("ctl.sock"), mode: asRoot ? 0o660 : 0,
            handler: Handler(), logger: Logger(label: "test"))
        let group = try #require(getgrgid(getgid())).pointee.gr_name.map { String(cString: $0) } ?? "?"
        let run = try gesturectl(
            "status --socket '\(server.path)'", loop: loop, dir: dir,
            runner: asRoot ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "")
        #expect(exitStatus(run.status) == 1)
        if group == "root" {
            #expect(
                run.stderr == "Error: permission denied on \(server.path): it is root's (the daemon runs as root with no "
                    + "[daemon] socket_group); run gesturectl as root, or set [daemon] socket_group to a group of its "
                    + "users and restart gestured\n")
        } else {
            #expect(
                run.stderr == "Error: permission denied on \(server.path): it is for root and the members of group '\(group)'; "
                    + "join it (sudo usermod -aG \(group) $USER, then log in again) or run gesturectl as root\n")
        }
    }

    @Test func monitorPrintsTheStream() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = Handler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: Logger(label: "test"))
        let names = GestureNames(gestures: ["back"], types: [.swipe], views: ["root"])
        var published = false
        let run = try gesturectl(
            "monitor --socket '\(server.path)'", loop: loop, dir: dir,
            whileRunning: {
                if !published && server.subscriberCount == 1 {
                    server.publish(
                        GestureEvent(
                            time: 2_500_000, gesture: 0, view: 0, state: .recognized, device: DeviceID(1),
                            x: 5, y: 6, touches: 1, direction: .left), names: names, origin: 1_000_000)
                    published = true
                }
            }, until: { (readText(dir.file("out")) ?? "").contains("\n") })
        #expect(run.stdout == "    1.500  root/back swipe recognized  x=5 y=6 touches=1 direction=left\n")
    }

    /// `monitor --coalesce` subscribes with `"coalesce": true`: it gets the paced `changed`
    /// (with how many it stands for), not the panel's every `changed`.
    @Test func monitorCoalesceGetsThePacedChanged() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = Handler()  // the server holds it weakly
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: Logger(label: "test"))
        let names = GestureNames(gestures: ["zoom"], types: [.pinch], views: ["root"])
        var published = false
        let run = try gesturectl(
            "monitor --coalesce --socket '\(server.path)'", loop: loop, dir: dir,
            whileRunning: {
                if !published && server.subscriberCount == 1 {
                    let event = GestureEvent(
                        time: 2_500_000, gesture: 0, view: 0, state: .changed, device: DeviceID(1), x: 5, y: 6, touches: 2)
                    server.publish(event, names: names, origin: 1_000_000, paced: true)
                    server.publish(paced: event, coalesced: 4, names: names, origin: 1_000_000)
                    published = true
                }
            }, until: { (readText(dir.file("out")) ?? "").contains("\n") })
        #expect(run.stdout.hasPrefix("    1.500  root/zoom pinch changed  x=5 y=6 touches=2 "), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.hasSuffix(" coalesced=4\n"), "\(run.stdout)")
        #expect(run.stdout.split(separator: "\n").count == 1, "\(run.stdout)")
    }

    /// `set` and `mode` check their arguments as the daemon would, before connecting: a bad
    /// one is a usage error (64) in the daemon's words, and the daemon hears nothing of it.
    @Test func badSetAndModeArgumentsAreUsageErrorsBeforeConnecting() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = Handler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: Logger(label: "test"))
        let refused: [(arguments: String, error: String)] = [
            ("set gesture back x=5", "only a view has x=: a gesture has enabled= only"),
            ("set view map x=4mm", "x is '4mm': expected \(FrameLength.expected)"),
            ("set view map enabled=maybe", "enabled is true or false, found 'maybe'"),
            ("set view map depth=3", "unknown key 'depth': expected enabled, x, y, width or height"),
            ("set view map", "nothing to set: give enabled=true|false, or x=, y=, width=, height="),
            ("set screen map enabled=false", "expected gesture or view, found 'screen'"),
            ("mode none --for 1s", "--for needs a mode to end, not none"),
            ("mode calm --for 0s", "--for is '0s': expected \(ConfigDuration.expected), more than 0"),
        ]
        for (arguments, error) in refused {
            let run = try gesturectl("\(arguments) --keep --socket '\(server.path)'", loop: loop, dir: dir)
            #expect(exitStatus(run.status) == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: \(error)\nUsage: gesturectl "), "\(arguments): \(run.stderr)")
        }
        #expect(handler.handled.isEmpty, "\(handler.handled)")
        // The same commands with good arguments reach the daemon, one request each.
        for arguments in ["set view map x=50% enabled=false", "mode calm --for 30s"] {
            let run = try gesturectl("\(arguments) --keep --socket '\(server.path)'", loop: loop, dir: dir)
            #expect(exitStatus(run.status) == 0, "\(arguments): \(run.stderr)")
        }
        #expect(handler.handled.count == 2, "\(handler.handled)")
    }
}

/// WEXITSTATUS for a status that is known to be a normal exit.
private func exitStatus(_ status: Int32) -> Int32 { (status >> 8) & 0xff }
