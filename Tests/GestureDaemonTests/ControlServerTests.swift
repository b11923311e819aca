import DaemonTestSupport
import GestureControl
import GestureCore
import LinuxSystem
import Logging
import TestSupport
import Testing
import TouchInput

@testable import ActionDispatch
@testable import GestureDaemon
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// A handler with fixed content, so the tests see exactly what the server did with it.
private final class FixedHandler: ControlHandler {
    var reloads = 0
    /// Who sent the commands handed on, and whose connections closed.
    var owners: [ControlPeer] = []
    var closed: [ControlPeer] = []
    var reloadError: ControlError?
    func handle(_ request: DaemonRequest, from peer: ControlPeer) -> ControlReply {
        owners.append(peer)
        switch request {
        case .status: return .success(.object([("version", .string("test"))]))
        case .reload:
            reloads += 1
            if let reloadError { return .failure(reloadError) }
            return .success(.object([("reloaded", .bool(true))]))
        case .devices: return .success(.array([]))
        case .replayStart: return .success(.bool(true))
        case .runtime: return .success(.string("set"))
        case .trigger, .metrics: return .failure(ControlError(code: "test", message: "not served by this handler"))
        }
    }
    func connectionClosed(_ peer: ControlPeer) { closed.append(peer) }
}

/// A non-blocking client the test reads while it serves the loop.
private final class TestClient {
    let fd: FileDescriptor
    var received: [UInt8] = []
    var closed = false
    /// Whole lines received, counted as bytes arrive: the loops that wait on it run once per
    /// read, and decoding and splitting all the text each time grew with the square of a
    /// long reply's length.
    private(set) var lineCount = 0

    init(_ path: String, receiveBuffer: Int32? = nil) throws {
        fd = try UnixSocket.make(datagram: false)
        if var size = receiveBuffer {
            setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        try UnixSocket.connect(fd, to: path)
    }

    func send(_ text: String) { _ = UnixSocket.send(fd, Array(text.utf8)[...]) }

    /// Reads what arrived; true once the server closed the connection.
    @discardableResult
    func pump() -> Bool {
        while !closed {
            do {
                guard let n = try fd.readAvailable(into: &received, max: 65536) else { break }
                if n == 0 { closed = true }
                lineCount += received[(received.count - n)...].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            } catch {
                closed = true
            }
        }
        return closed
    }

    var lines: [String] { String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init) }
    func json(_ index: Int) throws -> JSONValue { try JSONParser.parse(lines[index]) }
}

/// A control server on a manual clock, in a directory of its own that goes with it.
private final class ManualServer {
    let dir: TemporaryDirectory
    let clock = ManualClock()
    let loop: EventLoop
    let handler = FixedHandler()
    let server: ControlServer

    init(logger: Logger) throws {
        dir = try TemporaryDirectory()
        loop = try EventLoop(clock: .manual(clock))
        server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: logger)
    }

    deinit { dir.remove() }
}

@Suite struct ControlServerTests {
    let logger = Logger(label: "test")

    @Test func commandsGetReplies() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = FixedHandler()
        handler.reloadError = ControlError(code: "config", message: "line 3: bad")
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: logger)
        var info = stat()
        #expect(stat(server.path, &info) == 0 && info.st_mode & 0o777 == 0o660)

        let client = try TestClient(server.path)
        client.send(
            #"{"cmd":"status"}"# + "\n" + #"{"cmd": "reload"}"# + "\n" + #"{"cmd":"replay-start"}"# + "\n"
                + #"{"cmd":"devices"}"# + "\n")
        #expect(
            try serve(loop) {
                client.pump()
                return client.lineCount == 4
            })
        #expect(try client.json(0) == .object([("ok", .object([("version", .string("test"))]))]))
        #expect(try client.json(1)["error"]?["message"] == .string("line 3: bad"))
        #expect(try client.json(2)["ok"] == .bool(true))
        #expect(try client.json(3)["ok"] == .array([]))
        #expect(handler.reloads == 1)
    }

    @Test func garbageGetsErrorsAndTheServerStaysUp() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = FixedHandler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: logger)

        let client = try TestClient(server.path)
        client.send(
            "not json\n[1,2]\n{\"cmd\":\"fly\"}\n{\"cmd\":\"status\"\n" + String(repeating: "[", count: 100) + "\n\u{1}\u{2}\u{ff}\n")
        #expect(
            try serve(loop) {
                client.pump()
                return client.lineCount == 6
            })
        let codes = try (0..<6).map { try client.json($0)["error"]?["code"]?.stringValue }
        #expect(codes == ["malformed", "bad-request", "unknown-command", "malformed", "malformed", "malformed"])
        #expect(!client.closed, "errors in a request leave the connection open")

        // Oversized: an error, then the server closes that connection.
        let big = try TestClient(server.path)
        big.send(String(repeating: "x", count: ControlServer.maximumRequest + 10))
        #expect(try serve(loop) { big.pump() })
        #expect(try big.json(0)["error"]?["code"] == .string("too-large"))

        // The server still answers others.
        let after = try TestClient(server.path)
        after.send(#"{"cmd":"status"}"# + "\n")
        #expect(
            try serve(loop) {
                after.pump()
                return after.lineCount == 1
            })
    }

    @Test func connectionsBeyondTheLimitAreTurnedAway() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = FixedHandler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: logger)
        var clients: [TestClient] = []
        for _ in 0..<ControlServer.maximumConnections {
            clients.append(try TestClient(server.path))
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        #expect(try serve(loop) { server.status.values[ControlMetrics.connections] == Double(ControlServer.maximumConnections) })
        let extra = try TestClient(server.path)
        #expect(try serve(loop) { extra.pump() })
        #expect(try extra.json(0)["error"]?["code"] == .string("busy"))
        // Those already in are still served.
        clients[0].send(#"{"cmd":"status"}"# + "\n")
        #expect(
            try serve(loop) {
                clients[0].pump()
                return clients[0].lineCount == 1
            })
    }

    /// The request cap holds for every line, also after a newline: a status request
    /// followed by a flood is answered, then the flood is refused and the connection
    /// closed, and the server's buffer never held more than a line and a read budget.
    @Test func everyLineIsCappedNotOnlyTheFirst() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = FixedHandler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: logger)
        let flood = try TestClient(server.path)
        let other = try TestClient(server.path)
        try loop.runOnce(timeoutMilliseconds: 0)
        flood.send(#"{"cmd":"status"}"# + "\n" + String(repeating: "x", count: 150_000))
        other.send(#"{"cmd":"status"}"# + "\n")
        #expect(
            try serve(loop) {
                flood.pump()
                other.pump()
                return flood.closed && other.lineCount == 1
            })
        #expect(flood.lineCount == 2)
        #expect(try flood.json(0)["ok"]?["version"] == .string("test"))
        #expect(try flood.json(1)["error"]?["code"] == .string("too-large"))
        #expect(server.oversizedRequests == 1)
        #expect(try other.json(0)["ok"] != nil)
    }

    /// A reply longer than the subscriber buffer still arrives whole: the buffer limits
    /// the event stream only (a 1 MiB reload error used to end in "connection closed").
    @Test func longRepliesArriveWhole() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = FixedHandler()
        handler.reloadError = ControlError(code: "reload-failed", message: String(repeating: "e", count: 1 << 20))
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), subscriberBuffer: 4096, handler: handler, logger: logger)
        let client = try TestClient(server.path, receiveBuffer: 4096)
        client.send(#"{"cmd":"reload"}"# + "\n" + #"{"cmd":"status"}"# + "\n")
        #expect(
            try serve(loop) {
                client.pump()
                return client.lineCount == 2 || client.closed
            })
        #expect(try client.json(0)["error"]?["message"]?.stringValue?.count == 1 << 20)
        #expect(try client.json(1)["ok"] != nil)
    }

    /// Idle connections are closed after `idleTimeout`; when all are taken, the one idle
    /// longest makes room, so the operator gets in (64 idle clients locked everyone out).
    @Test func idleConnectionsMakeRoom() throws {
        let fixture = try ManualServer(logger: logger)
        defer { withExtendedLifetime(fixture) {} }
        let (clock, loop, server) = (fixture.clock, fixture.loop, fixture.server)
        server.evictAfter = 200_000
        var idle: [TestClient] = []
        // Each accepted a microsecond after the one before: the first is idle longest.
        for count in 1...ControlServer.maximumConnections {
            idle.append(try TestClient(server.path))
            #expect(try serve(loop) { server.status.values[ControlMetrics.connections] == Double(count) })
            clock.advance(by: 1)
        }
        #expect(try serve(loop) { server.status.values[ControlMetrics.connections] == Double(ControlServer.maximumConnections) })
        clock.advance(by: 300_000)
        let operatorClient = try TestClient(server.path)
        operatorClient.send(#"{"cmd":"status"}"# + "\n")
        #expect(
            try serve(loop) {
                operatorClient.pump()
                return operatorClient.lineCount == 1
            })
        #expect(try operatorClient.json(0)["ok"] != nil)
        #expect(server.evictedConnections == 1 && server.refusedConnections == 0)
        #expect(try serve(loop) { idle[0].pump() })
        #expect(try idle[0].json(0)["error"]?["code"] == .string("evicted"))

        server.idleTimeout = 300_000
        let quiet = try TestClient(server.path)
        // Accepted (the table is full: another idle one made room for it).
        #expect(try serve(loop) { server.evictedConnections == 2 })
        // One microsecond short of the timeout it stays; at the timeout it is closed.
        clock.advance(by: 300_000 - 1)
        for _ in 0..<3 { try loop.runOnce(timeoutMilliseconds: 0) }
        #expect(!quiet.pump())
        clock.advance(by: 1)
        #expect(try serve(loop) { quiet.pump() })
        #expect(try quiet.json(0)["error"]?["code"] == .string("idle"))
    }

    /// A client that sends requests and never reads its replies is not read further (its
    /// replies wait, the daemon's buffer holds one turn's worth) and is closed after the
    /// idle timeout, so it cannot hold a connection for ever.
    @Test func aClientThatNeverReadsIsClosedAfterTheIdleTimeout() throws {
        let fixture = try ManualServer(logger: logger)
        defer { withExtendedLifetime(fixture) {} }
        let (clock, loop, server) = (fixture.clock, fixture.loop, fixture.server)
        server.idleTimeout = 300_000
        let deaf = try TestClient(server.path, receiveBuffer: 4096)
        let bytes = Array(String(repeating: #"{"cmd":"status"}"# + "\n", count: 60_000).utf8)
        var sent = 0
        var stalled = 0
        #expect(try serve(loop) { server.status.values[ControlMetrics.connections] == 1 })
        #expect(
            try serve(loop) {
                let n = sent < bytes.count ? UnixSocket.send(deaf.fd, bytes[sent...]) : 0
                if n > 0 {
                    sent += n
                    stalled = 0
                } else {
                    stalled += 1
                }
                // The socket has taken nothing for ten turns: the daemon stopped reading.
                // Then the idle timeout passes.
                if stalled == 10 { clock.advance(by: server.idleTimeout) }
                return server.status.values[ControlMetrics.connections] == 0
            })
        #expect(sent < bytes.count, "the daemon stopped reading a client that does not read")
    }

    /// A connection that shaped the gesture layer keeps its changes as long as it is open:
    /// the idle timeout closes a silent status client, not it.
    @Test func aConnectionOwningChangesIsNotClosedForBeingIdle() throws {
        let fixture = try ManualServer(logger: logger)
        defer { withExtendedLifetime(fixture) {} }
        let (clock, loop, handler, server) = (fixture.clock, fixture.loop, fixture.handler, fixture.server)
        let owner = try TestClient(server.path)
        let looker = try TestClient(server.path)
        owner.send(#"{"cmd":"set","gesture":"tap","enabled":false}"# + "\n")
        looker.send(#"{"cmd":"status"}"# + "\n")
        #expect(
            try serve(loop) {
                owner.pump()
                looker.pump()
                return owner.lineCount == 1 && looker.lineCount == 1
            })
        clock.advance(by: server.idleTimeout)
        #expect(try serve(loop) { looker.pump() })
        #expect(try looker.json(1)["error"]?["code"] == .string("idle"))
        #expect(!owner.pump() && server.status.values[ControlMetrics.connections] == 1 && handler.closed.isEmpty)
    }

    @Test func slowRequestIsCutOff() throws {
        let fixture = try ManualServer(logger: logger)
        defer { withExtendedLifetime(fixture) {} }
        let (clock, loop, server) = (fixture.clock, fixture.loop, fixture.server)
        let slow = try TestClient(server.path)
        slow.send(#"{"cmd":"sta"#)
        #expect(try serve(loop) { server.status.values[ControlMetrics.connections] == 1 })
        // The half line is already there: this turn reads it (the request's clock starts).
        try loop.runOnce(timeoutMilliseconds: 1000)
        clock.advance(by: ControlServer.requestTimeout - 1)
        for _ in 0..<3 { try loop.runOnce(timeoutMilliseconds: 0) }
        #expect(!slow.pump(), "not cut off before the timeout")
        clock.advance(by: 1)
        #expect(try serve(loop) { slow.pump() })
        #expect(try slow.json(0)["error"]?["code"] == .string("timeout"))
    }

    @Test func slowSubscriberIsDroppedWhileAnotherKeepsReceiving() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = FixedHandler()  // the server holds its handler weakly
        let server = try ControlServer(
            loop: loop, path: dir.file("ctl.sock"), subscriberBuffer: 4096,
            handler: handler, logger: logger)
        let fast = try TestClient(server.path)
        let slow = try TestClient(server.path, receiveBuffer: 4096)
        fast.send(#"{"cmd":"subscribe"}"# + "\n")
        slow.send(#"{"cmd":"subscribe","trace":true}"# + "\n")
        #expect(
            try serve(loop) {
                fast.pump()
                slow.pump()
                return fast.lineCount == 1 && slow.lineCount == 1
            })
        #expect(try slow.json(0)["ok"]?["trace"] == .bool(true))
        #expect(server.subscriberCount == 2)
        #expect(server.wantsTrace)

        let names = GestureNames(gestures: ["scroll"], types: [.pan], views: ["root"])
        var sent = 0
        // The slow one never reads; the fast one does. Publish until the slow one is gone,
        // a small burst per turn (less than the fast one's 4 KiB) so that a loaded machine's
        // slow turns still fill the kernel's socket buffers within the ceiling.
        #expect(
            try serve(loop, ceiling: 30) {
                for _ in 0..<8 {
                    server.publish(
                        GestureEvent(
                            time: Int64(sent) * 1000, gesture: 0, view: 0, state: .changed, device: DeviceID(1),
                            x: 1, y: 2, touches: 1, translationX: 3), names: names, origin: 0)
                    sent += 1
                }
                fast.pump()
                return server.subscriberCount == 1
            })
        #expect(server.droppedSubscribers == 1)
        #expect(!server.wantsTrace)
        #expect(
            try serve(loop) {
                fast.pump()
                return fast.lineCount == sent + 1
            }, "the fast one got every event")
        #expect(try fast.json(sent)["translation_x"] == .number(3))
        #expect(slow.pump(), "the slow one was disconnected")
    }

    @Test func liveSocketIsNotStolenAndStaleOneIsReplaced() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let path = dir.file("ctl.sock")
        let handler = FixedHandler()
        var first: ControlServer? = try ControlServer(loop: loop, path: path, handler: handler, logger: logger)
        #expect(throws: SystemError.self) { try ControlServer(loop: loop, path: path, handler: handler, logger: logger) }
        #expect(first != nil)
        first?.close()
        #expect(access(path, F_OK) != 0, "close removes the socket")
        first = nil
        // A stale socket file (nobody listening) is replaced.
        _ = try Listener(path: path, datagram: true)
        _ = try ControlServer(loop: loop, path: path, handler: handler, logger: logger)
    }

    @Test func unknownGroupIsAClearError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        do {
            _ = try ControlServer(
                loop: loop, path: dir.file("ctl.sock"), group: "no-such-group-gestured", handler: FixedHandler(), logger: logger)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("no-such-group-gestured"))
            #expect(error.description.contains("socket_group"))
        }
    }

    @Test func socketGetsTheConfiguredGroupAndMode() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // Our own primary group: a chown anyone may do.
        let group = try #require(getgrgid(getgid())).pointee
        let name = String(cString: group.gr_name)
        let loop = try EventLoop()
        let handler = FixedHandler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), mode: 0o600, group: name, handler: handler, logger: logger)
        var info = stat()
        #expect(stat(server.path, &info) == 0)
        #expect(info.st_gid == getgid())
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func clientSaysWhenTheDaemonIsNotRunning() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            _ = try ControlClient(candidates: [dir.file("a.sock"), dir.file("b.sock")])
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "gestured is not running: no socket at \(dir.file("a.sock")) or \(dir.file("b.sock")) (start it, or pass --socket)")
        }
        let stale = dir.file("stale.sock")
        _ = try Listener(path: stale, datagram: false)  // closed at once: nobody listens
        do {
            _ = try ControlClient(candidates: [stale])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("gestured is not running: nothing listens at \(stale)"))
        }
    }

    /// A socket of group root (a daemon started by root, no socket_group): joining root is
    /// never the advice; another group's members are told to join it.
    @Test func permissionDeniedNeverSaysJoinRoot() {
        let root = ControlClientError.permissionDenied(path: "/run/gestured/gestured.sock", group: "root").description
        #expect(!root.contains("usermod"))
        #expect(root.contains("[daemon] socket_group"))
        #expect(root.contains("run gesturectl as root"))
        let members = ControlClientError.permissionDenied(path: "/run/gestured/gestured.sock", group: "gestured").description
        #expect(members.contains("sudo usermod -aG gestured $USER"))
    }

    @Test func socketPathOrder() {
        let env = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(ControlSocketPath.candidates(option: "/x.sock", environment: ["GESTURED_SOCKET": "/y.sock"]) == ["/x.sock"])
        #expect(ControlSocketPath.candidates(option: nil, environment: ["GESTURED_SOCKET": "/y.sock"]) == ["/y.sock"])
        #expect(
            ControlSocketPath.candidates(option: nil, environment: env)
                == ["/run/gestured/gestured.sock", "/run/user/1000/gestured/gestured.sock"])
        #expect(ControlSocketPath.forDaemon(option: nil, configured: "/c.sock", environment: env) == "/c.sock")
        #expect(
            ControlSocketPath.forDaemon(option: "/o.sock", configured: "/c.sock", environment: ["GESTURED_SOCKET": "/e.sock"]) == "/o.sock")
    }
}

/// Who may do what (docs/PROTOCOL.md, "Who may do what"): the kiosk application's group
/// shapes the gesture layer, the socket's group does everything.
@Suite struct ControlAuthorizationTests {
    let logger = Logger(label: "test")
    let admin = ControlAuthorizer.Group(name: "gestured", id: 500)
    let control = ControlAuthorizer.Group(name: "gestured-control", id: 501)
    /// The kiosk application: its own primary group, the control group as a supplementary one.
    let application = PeerCredentials(pid: 4242, uid: 1000, gid: 1000, groups: [27, 501])

    @Test func theApplicationsGroupShapesButDoesNotAdminister() {
        let authorizer = ControlAuthorizer(adminGroup: admin, controlGroup: control, daemonUser: 999)
        #expect(authorizer.access(of: application) == .control)
        for command in [ControlCommand.status, .subscribe, .devices, .metrics, .set, .mode, .reset] {
            #expect(authorizer.refusal(of: command, for: application) == nil, "\(command)")
        }
        let refusal = authorizer.refusal(of: .reload, for: application)
        #expect(refusal?.code == "forbidden")
        #expect(
            refusal?.message
                == "\"reload\" needs group gestured (the socket's group, [daemon] socket_group); this client (uid 1000, pid 4242) may use: status, devices, subscribe, metrics, set, mode, reset"
        )
        #expect(authorizer.refusal(of: .trigger, for: application)?.code == "forbidden")
        #expect(authorizer.refusal(of: .replayStart, for: application)?.code == "forbidden")
    }

    @Test func theSocketsGroupRootAndTheDaemonsUserMayDoEverything() {
        let authorizer = ControlAuthorizer(adminGroup: admin, controlGroup: control, daemonUser: 999)
        let operators = [
            PeerCredentials(pid: 1, uid: 1001, gid: 500), PeerCredentials(pid: 2, uid: 1002, gid: 100, groups: [500, 501]),
            PeerCredentials(pid: 3, uid: 0, gid: 0), PeerCredentials(pid: 4, uid: 999, gid: 999),
        ]
        for peer in operators {
            #expect(authorizer.access(of: peer) == .admin, "\(peer)")
            #expect(ControlCommand.allCases.allSatisfy { authorizer.refusal(of: $0, for: peer) == nil })
        }
    }

    /// One the socket's mode lets in (0o666) without either group only looks.
    @Test func othersOnlyLook() {
        let authorizer = ControlAuthorizer(adminGroup: admin, controlGroup: control, daemonUser: 999)
        let stranger = PeerCredentials(pid: 7, uid: 1003, gid: 1003)
        #expect(authorizer.refusal(of: .status, for: stranger) == nil)
        #expect(
            authorizer.refusal(of: .set, for: stranger)?.message.hasPrefix(
                "\"set\" needs group gestured-control ([daemon] control_group) or gestured") == true)
    }

    /// Without `control_group` the socket's permissions alone decide, as before.
    @Test func withoutAControlGroupWhoeverConnectsMayDoEverything() {
        let authorizer = ControlAuthorizer(adminGroup: admin, controlGroup: nil, daemonUser: 999)
        #expect(ControlCommand.allCases.allSatisfy { authorizer.refusal(of: $0, for: application) == nil })
    }

    /// Over a real socket, with the application's credentials put in (a test cannot change
    /// its uid): the server refuses `reload` with `forbidden` before the handler sees it,
    /// and hands `set` on with the connection as its owner.
    @Test func aRefusedCommandOverTheSocket() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = FixedHandler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), controlGroup: "daemon", handler: handler, logger: logger)
        let application = PeerCredentials(pid: 4242, uid: 1000, gid: 1000, groups: [1])
        server.peerCredentials = { _ in application }
        let client = try TestClient(server.path)
        client.send(#"{"cmd":"reload"}"# + "\n" + #"{"cmd":"set","gesture":"tap","enabled":false}"# + "\n" + #"{"cmd":"trigger"}"# + "\n")
        #expect(
            try serve(loop) {
                client.pump()
                return client.lineCount == 3
            })
        #expect(try client.json(0)["error"]?["code"] == .string("forbidden"))
        #expect(try client.json(1)["ok"] == .string("set"))
        #expect(try client.json(2)["error"]?["code"] == .string("forbidden"))
        #expect(handler.reloads == 0)
        #expect(handler.owners.map(\.credentials) == [application])
    }

    /// The path that works, as the kernel sees it: the socket file's ACL lets the control
    /// group connect beside the socket's group, and a real client (this test's user) is
    /// served; when it closes, the handler hears that its owner went away.
    @Test func theControlGroupMayConnectAndClosingIsReported() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let handler = FixedHandler()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), controlGroup: "daemon", handler: handler, logger: logger)
        #expect(GroupACL.namedGroups(of: server.path) == [1])
        var info = stat()
        #expect(stat(server.path, &info) == 0 && info.st_mode & 0o777 == 0o660)
        var client: TestClient? = try TestClient(server.path)
        client?.send(#"{"cmd":"set","gesture":"tap","enabled":false}"# + "\n")
        #expect(
            try serve(loop) {
                client?.pump()
                return client?.lineCount == 1
            })
        let owner = try #require(handler.owners.first)
        #expect(owner.credentials.pid == getpid() && owner.credentials.uid == getuid() && owner.id == 1)
        client = nil
        #expect(try serve(loop) { handler.closed == [owner] })
    }
}
