import CLinuxShims
import GestureControl
import GestureCore
import LinuxSystem
import SystemLoop
import TestSupport
import Testing
import WebBridge

#if canImport(Glibc)
import Glibc
#endif

/// The bridge in this process on its loop, in front of a control socket peer that answers
/// late or never: while a request waits for the daemon, another page's stream flows, and
/// the request gets its late answer or, at the reply bound, 504.
@Suite struct SlowDaemonTests {
    @Test func aSlowReplyStallsNoOtherPagesStream() throws {
        let rig = try Rig()
        let page = try rig.open("/events")
        try rig.run { page.session != nil && page.lines.count >= 3 }

        // status answered after 0.5 s, metrics never (the bound here is 1 s).
        let status = try rig.send("GET", "/status")
        let metrics = try rig.send("GET", "/metrics")
        try rig.run { status.answered != nil && metrics.answered != nil }
        #expect(status.status == 200 && status.body.contains("\"gestures\""), "\(status.text)")
        #expect(metrics.status == 504 && metrics.body.contains("timeout"), "\(metrics.text)")
        #expect(status.elapsed >= 0.45 && metrics.elapsed >= 0.95)
        // The page's lines kept coming while each waited (one every 20 ms: about 25 and 50).
        #expect(page.lines(during: status) >= 5, "page lines while status waited: \(page.lines(during: status))")
        #expect(page.lines(during: metrics) >= 10, "page lines while metrics waited: \(page.lines(during: metrics))")

        // A second kind of stream whose subscribe is answered late: the first page flows meanwhile.
        let touches = try rig.open("/events?touches=1")
        let opened = rig.loop.now()
        try rig.run { touches.session != nil }
        let waited = Double(rig.loop.now() - opened) / 1e6
        #expect(waited >= 0.45, "the touches stream opened after \(waited) s")
        #expect(page.lines.filter { $0.at > opened }.count >= 5)
    }

    @Test func aPageSessionsLateReplyIsDroppedAndTheNextFindsItsOwn() throws {
        let rig = try Rig()
        let page = try rig.open("/events")
        try rig.run { page.session != nil }
        let session = try #require(page.session)
        // The peer answers this set after 1.5 s: the page gets 504 at the 1 s bound.
        let late = try rig.send("POST", "/set", session: session, body: #"{"gesture": "tap", "enabled": false, "n": 1, "delay_s": 1.5}"#)
        try rig.run { late.answered != nil }
        #expect(late.status == 504, "\(late.text)")
        // The next set on the same session gets its own reply, not the late one.
        let next = try rig.send("POST", "/set", session: session, body: #"{"gesture": "tap", "enabled": true, "n": 2}"#)
        try rig.run { next.answered != nil }
        #expect(next.status == 200 && next.body.contains(#""n":2"#) && !next.body.contains(#""n":1"#), "\(next.text)")
        #expect(rig.peer.closedControlConnections == 0, "the session's control connection stays open")
        #expect(page.lines.count > 50, "the stream flowed through it all")
    }
}

/// A loop with the bridge and the peer on it, and the test's own HTTP clients.
private final class Rig {
    let dir: TemporaryDirectory
    let loop: EventLoop
    let peer: SlowPeer
    let bridge: WebBridge
    let port: Int

    init() throws {
        dir = try TemporaryDirectory()
        loop = try EventLoop()
        peer = try SlowPeer(path: dir.file("ctl.sock"), loop: loop)
        var settings = WebSettings(socketCandidates: [dir.file("ctl.sock")])
        settings.limits.daemonReplySeconds = 1
        let listener = try TCPListener.bind("127.0.0.1:0")
        port = try #require(TCPListener.localPort(listener)?.port)
        bridge = try WebBridge(
            loop: loop, listener: listener, settings: settings, pages: WebPages { _ in .error(.notFound, code: "none", "no picture") },
            log: { _ in })
    }

    deinit {
        bridge.closeAll()
        dir.remove()
    }

    /// Turns of the loop until `done`, for at most `seconds`.
    func run(seconds: Double = 10, until done: () -> Bool) throws {
        let end = loop.now() + Microseconds(seconds * 1e6)
        while !done() {
            try #require(loop.now() < end, "not done within \(seconds) s")
            _ = try loop.runOnce(timeoutMilliseconds: 10)
        }
    }

    func open(_ target: String) throws -> Client {
        try Client(loop: loop, port: port, request: "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    }

    func send(_ method: String, _ target: String, session: String? = nil, body: String = "") throws -> Client {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let session { head += "Gestured-Session: \(session)\r\n" }
        if method == "POST" {
            head += "Origin: http://127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        }
        return try Client(loop: loop, port: port, request: head + "\r\n" + body)
    }
}

/// One HTTP connection read on the loop: an event stream's lines with the time each came,
/// or one response and when its connection closed.
private final class Client {
    let loop: EventLoop
    let fd: FileDescriptor
    let sent: Microseconds
    var bytes: [UInt8] = []
    var answered: Microseconds?
    /// The stream's event data lines, with the time they came.
    var lines: [(at: Microseconds, text: String)] = []
    var session: String?
    private var scanned = 0

    init(loop: EventLoop, port: Int, request: String) throws {
        self.loop = loop
        let fd = FileDescriptor(socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(rc == 0, "connect to the bridge: errno \(errno)")
        self.fd = fd
        _ = UnixSocket.send(fd, Array(request.utf8)[...])
        sent = loop.now()
        try loop.register(fd: fd.rawValue, events: [.readable, .hangup]) { [unowned self] _ in self.read() }
    }

    deinit { loop.unregister(fd: fd.rawValue) }

    private func read() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd.rawValue, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        guard n != 0 else {
            answered = answered ?? loop.now()
            loop.unregister(fd: fd.rawValue)
            return
        }
        guard n > 0 else { return }
        bytes += chunk[0..<n]
        while let newline = bytes[scanned...].firstIndex(of: 10) {
            let line = String(decoding: bytes[scanned..<newline], as: UTF8.self)
            scanned = newline + 1
            if line.hasPrefix("data: {\"session\":\"") {
                session = String(line.dropFirst("data: {\"session\":\"".count).dropLast(2))
            } else if line.hasPrefix("data: ") {
                lines.append((loop.now(), String(line.dropFirst(6))))
            }
        }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
    var status: Int { Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0 }
    var body: String {
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: [13, 10, 13, 10]) }) else { return "" }
        return String(decoding: bytes[(end + 4)...], as: UTF8.self)
    }
    var elapsed: Double { Double((answered ?? loop.now()) - sent) / 1e6 }

    /// Lines of this stream that came while `other` waited for its answer.
    func lines(during other: Client) -> Int { lines.count { $0.at > other.sent && $0.at < (other.answered ?? loop.now()) } }
}

/// A control socket peer on the loop that answers as a slow daemon would: `subscribe`
/// at once (with touches: after 0.5 s), then a line every 20 ms; `status` after 0.5 s;
/// `metrics` never; `set` after its `delay_s`, echoing its `n`; one request at a time per
/// connection, in order, as gestured does.
private final class SlowPeer {
    private let loop: EventLoop
    private let listener: FileDescriptor
    private final class Connection {
        let fd: FileDescriptor
        var input: [UInt8] = []
        var busy = false
        var streaming = false
        init(fd: FileDescriptor) { self.fd = fd }
    }
    private var connections: [Connection] = []
    private var timers: [DeadlineTimer] = []
    private var ticker: DeadlineTimer?
    private var count = 0
    /// Request connections the bridge closed (a page session's would undo its changes).
    private(set) var closedControlConnections = 0

    init(path: String, loop: EventLoop) throws {
        self.loop = loop
        listener = try UnixSocket.make(datagram: false)
        try UnixSocket.bind(listener, to: path)
        try #require(listen(listener.rawValue, 16) == 0)
        try loop.register(fd: listener.rawValue) { [unowned self] _ in self.accept() }
        ticker = try loop.makeTimer { [unowned self] in self.tick() }
        ticker?.set(loop.now() + 20_000)
    }

    private func accept() {
        while case let raw = cls_accept4(listener.rawValue, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)), raw >= 0 {
            let connection = Connection(fd: FileDescriptor(raw))
            connections.append(connection)
            try? loop.register(fd: raw, events: [.readable, .hangup]) { [unowned self, unowned connection] _ in self.read(connection) }
        }
    }

    private func read(_ connection: Connection) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = recv(connection.fd.rawValue, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        guard n != 0 else {
            if !connection.streaming { closedControlConnections += 1 }
            loop.unregister(fd: connection.fd.rawValue)
            connections.removeAll { $0 === connection }
            return
        }
        if n > 0 { connection.input += chunk[0..<n] }
        serve(connection)
    }

    /// The next request line, once the one before it was answered.
    private func serve(_ connection: Connection) {
        guard !connection.busy, let newline = connection.input.firstIndex(of: 10) else { return }
        let request = (try? JSONParser.parse(Array(connection.input[..<newline]))) ?? .null
        connection.input.removeSubrange(...newline)
        connection.busy = true
        switch request["cmd"]?.stringValue {
        case "subscribe":
            let touches = request["touches"] == .bool(true)
            reply(connection, #"{"ok":{}}"#, after: touches ? 0.5 : 0) { connection.streaming = true }
        case "status": reply(connection, #"{"ok":{"gestures":[]}}"#, after: 0.5)
        case "metrics": break
        case "set":
            let n = request["n"]?.intValue ?? 0
            reply(connection, #"{"ok":{"changed":[],"n":\#(n)}}"#, after: request["delay_s"]?.doubleValue ?? 0)
        default: reply(connection, #"{"error":{"code":"unknown-command","message":"?"}}"#, after: 0)
        }
    }

    private func reply(_ connection: Connection, _ line: String, after seconds: Double, then: @escaping () -> Void = {}) {
        let send = { [unowned self, unowned connection] in
            _ = UnixSocket.send(connection.fd, Array((line + "\n").utf8)[...])
            connection.busy = false
            then()
            self.serve(connection)
        }
        guard seconds > 0, let timer = try? loop.makeTimer(send) else { return send() }
        timers.append(timer)
        timer.set(loop.now() + Microseconds(seconds * 1e6))
    }

    private func tick() {
        count += 1
        for connection in connections where connection.streaming {
            _ = UnixSocket.send(
                connection.fd, Array(#"{"t":\#(count),"gesture":"tap","type":"tap","state":"recognized"}"#.utf8 + [10])[...])
        }
        ticker?.set(loop.now() + 20_000)
    }
}
