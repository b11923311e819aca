import GestureControl
import LinuxSystem
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `gestured-web` in front of a real `gestured` replaying a recording: what a page
/// gets over HTTP, and what it may not do.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct WebBridgeProcessTests {
    @Test func aPageGetsTheStreamUnchangedAndItsChangesLastAsLongAsItsStream() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let bridge = try WebBridgeProcess(daemon: daemon, config: config, dir: dir)

        // The stream: the session first, then each line of the daemon's stream as one event.
        let direct = try daemon.client()
        _ = try direct.request(.subscribe)
        let page = try bridge.openStream("/events?gesture=tap")
        let session = try #require(page.session)
        _ = try daemon.request(.replayStart)
        let lines = try (0..<9).map { _ in try #require(try direct.readLine()) }
        let taps = lines.filter { EventLine(line: $0)?["gesture"] == .string("tap") }
        let streamed = try (0..<taps.count).map { _ in try #require(page.nextData()) }
        #expect(streamed == taps.map { String(decoding: $0, as: UTF8.self) })

        // set through the page's session: the daemon has it, from this page's connection.
        let origin = "http://127.0.0.1:\(bridge.port)"
        let set = try bridge.request("POST", "/set", origin: origin, session: session, body: #"{"gesture": "tap", "enabled": false}"#)
        #expect(set.status == 200 && set.body.contains(#""changed":[{"gesture":"tap","enabled":false}]"#), "\(set)")
        #expect(try daemon.status().gestures.first { $0.name == "tap" }?.enabled == false)
        // The page closes: its stream ends, the bridge closes its control connection, and the daemon undoes the change.
        page.close()
        #expect(eventually { (try? daemon.status().gestures.first { $0.name == "tap" }?.enabled) == true })
        // Its session is gone with it.
        let stale = try bridge.request("POST", "/set", origin: origin, session: session, body: #"{"gesture": "tap", "enabled": false}"#)
        #expect(stale.status == 409)

        // What a page may not do.
        let foreign = try bridge.request(
            "POST", "/set", origin: "https://evil.example", session: session, body: #"{"gesture": "tap", "enabled": false}"#)
        #expect(foreign.status == 403 && foreign.body.contains("evil.example"))
        #expect(!foreign.head.lowercased().contains("access-control-allow-origin"))
        let rebound = try bridge.request("GET", "/status", host: "attacker.example:\(bridge.port)")
        #expect(rebound.status == 403)
        let noSession = try bridge.request("POST", "/set", origin: origin, body: #"{"gesture": "tap", "enabled": false}"#)
        #expect(noSession.status == 409)
        #expect(try bridge.request("POST", "/reload", origin: origin, body: "{}").status == 404)
        #expect(try daemon.status().gestures.allSatisfy(\.enabled))

        // Status and metrics as the daemon gives them.
        let status = try bridge.request("GET", "/status")
        let parsed = DaemonStatus(json: try JSONParser.parse(status.body))
        #expect(status.status == 200 && parsed.gestures.map(\.name) == ["tap", "drag"])
        let metrics = try bridge.request("GET", "/metrics")
        #expect(metrics.status == 200 && metrics.head.contains("text/plain; version=0.0.4"))
        #expect(metrics.body.contains("gestured_gesture_recognitions_total") || metrics.body.contains("gestured_build_info"))
        // The pages.
        #expect(try bridge.request("GET", "/gestured-web.js").body.contains("export class Gestured"))
        let picture = try bridge.request("GET", "/picture.svg")
        #expect(picture.status == 200 && picture.body.contains("data-gesture=\"tap\""))
        try daemon.stop()
    }

    @Test func boundsAreRefusedWithTheirStatus() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let bridge = try WebBridgeProcess(daemon: daemon, config: config, dir: dir, arguments: ["--max-streams", "1"])
        let long = try bridge.request("GET", "/status", extraHeaders: "X-Long: " + String(repeating: "a", count: 9000) + "\r\n")
        #expect(long.status == 431)
        let first = try bridge.openStream("/events")
        #expect(first.session != nil)
        #expect(try bridge.request("GET", "/events").status == 503)
        first.close()
        #expect(eventually { (try? bridge.openStream("/events").session) != nil })
        try daemon.stop()
    }

    @Test func socketActivatedItServesTheSocketItIsGiven() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let bridge = try WebBridgeProcess(daemon: daemon, config: config, dir: dir, socketActivated: true)
        // The Host names follow the inherited socket's port.
        let status = try bridge.request("GET", "/status", host: "localhost:\(bridge.port)")
        #expect(status.status == 200 && status.body.contains("\"gestures\""), "\(status)")
        #expect(try bridge.request("GET", "/status", host: "localhost:8470").status == 403)
        try daemon.stop()
    }
}

/// A real `gestured-web` on a free loopback port, for `daemon`: listening itself, or
/// socket-activated as systemd starts it (`systemd-socket-activate` passes the listening
/// socket as fd 3 with LISTEN_FDS and LISTEN_PID, and starts it at the first connection).
final class WebBridgeProcess {
    let pid: pid_t
    let port: Int

    static let socketActivate = "/usr/bin/systemd-socket-activate"

    init(daemon: GesturedProcess, config: String, dir: TemporaryDirectory, arguments: [String] = [], socketActivated: Bool = false) throws {
        let path = ChildProcess.buildDirectory + "/gestured-web"
        try #require(access(path, X_OK) == 0, "build gestured-web first: \(path)")
        let bridgeArguments = ["--socket", daemon.socket, "--config", config] + arguments
        var argv: [String]
        var activatedPort = 0
        if socketActivated {
            try #require(access(Self.socketActivate, X_OK) == 0, "systemd-socket-activate (Debian's systemd, make deps) is missing")
            activatedPort = try Self.freePort()
            argv = [Self.socketActivate, "-l", "127.0.0.1:\(activatedPort)", path] + bridgeArguments
        } else {
            argv = [path, "--listen", "127.0.0.1:0"] + bridgeArguments
        }
        let out = dir.file("web.out")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, dir.file("web.err"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        try #require(rc == 0)
        self.pid = pid
        if socketActivated {
            port = activatedPort
            try #require(eventually { (try? Self.connect(port: activatedPort)) != nil }, "systemd-socket-activate did not listen")
            return
        }
        var port = 0
        _ = eventually {
            port = Int((readText(out) ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" }).last ?? "") ?? 0
            return port > 0
        }
        try #require(port > 0, "gestured-web did not start: \(readText(dir.file("web.err")) ?? "")")
        self.port = port
    }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    struct Reply: CustomStringConvertible {
        var status: Int
        var head: String
        var body: String
        var description: String { head + body }
    }

    /// A port nothing listens on now (bound to port 0, then released).
    static func freePort() throws -> Int {
        let fd = FileDescriptor(socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let rc = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd.rawValue, $0, length) == 0 ? getsockname(fd.rawValue, $0, &length) : -1
            }
        }
        try #require(rc == 0)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func connect() throws -> FileDescriptor { try Self.connect(port: port) }

    static func connect(port: Int) throws -> FileDescriptor {
        let fd = FileDescriptor(socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { throw CLIError("connect to port \(port): errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func send(_ fd: FileDescriptor, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    static func head(
        _ method: String, _ target: String, host: String, origin: String?, session: String?, body: String, extraHeaders: String
    ) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n" + extraHeaders
        if let origin { text += "Origin: \(origin)\r\n" }
        if let session { text += "Gestured-Session: \(session)\r\n" }
        if method == "POST" { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        return text + "\r\n" + body
    }

    /// One request on a connection of its own, read to its end.
    func request(
        _ method: String, _ target: String, host: String? = nil, origin: String? = nil, session: String? = nil, body: String = "",
        extraHeaders: String = ""
    ) throws -> Reply {
        let fd = try connect()
        Self.send(
            fd,
            Self.head(
                method, target, host: host ?? "127.0.0.1:\(port)", origin: origin, session: session, body: body, extraHeaders: extraHeaders)
        )
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd.rawValue, &chunk, chunk.count, 0)
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        let end = bytes.indices.first { bytes[$0...].starts(with: [13, 10, 13, 10]) } ?? bytes.count
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        return Reply(
            status: Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0, head: head,
            body: String(decoding: bytes.dropFirst(end + 4), as: UTF8.self))
    }

    /// An EventSource's connection: its head read, its session taken from the first event.
    func openStream(_ target: String) throws -> Stream {
        let fd = try connect()
        Self.send(fd, Self.head("GET", target, host: "127.0.0.1:\(port)", origin: nil, session: nil, body: "", extraHeaders: ""))
        let stream = Stream(fd: fd)
        stream.session = try stream.readSession()
        return stream
    }

    final class Stream {
        var fd: FileDescriptor?
        var buffer: [UInt8] = []
        var session: String?

        init(fd: FileDescriptor) { self.fd = fd }

        /// The next line, without its newline.
        func line() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: 10) {
                    defer { buffer.removeSubrange(...newline) }
                    return String(decoding: buffer[..<newline], as: UTF8.self)
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                guard let fd else { return nil }
                let n = recv(fd.rawValue, &chunk, chunk.count, 0)
                guard n > 0 else { return nil }
                buffer += chunk[0..<n]
            }
        }

        func readSession() throws -> String? {
            while let line = line() {
                if line.hasPrefix("HTTP/1.1 ") && !line.hasPrefix("HTTP/1.1 200") { return nil }
                if line.hasPrefix("data: {\"session\":") {
                    return String(line.dropFirst("data: {\"session\":\"".count).dropLast(2))
                }
            }
            return nil
        }

        /// The data of the next event.
        func nextData() -> String? {
            while let line = line() {
                if line.hasPrefix("data: ") { return String(line.dropFirst(6)) }
            }
            return nil
        }

        func close() { fd = nil }
    }
}
