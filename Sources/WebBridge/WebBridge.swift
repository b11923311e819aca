import CLinuxShims
import GestureControl
import GestureCore
import JSONOutput
import LinuxSystem
import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// `gestured-web`: HTTP for kiosk pages on one epoll loop, as a client of the control
/// socket (docs/PROTOCOL.md, "Web pages"). Pages get the event stream as Server-Sent
/// Events, `set`/`mode`/`reset` scoped to their stream, the status and the metrics. Every
/// connection is non-blocking; nothing is read without a bound (`WebLimits`); with no
/// page connected and no request under way, no timer is armed and the loop sleeps.
public final class WebBridge {
    private let loop: EventLoop
    private let settings: WebSettings
    private let listener: FileDescriptor
    public let requestGuard: RequestGuard
    private var connections: [Int32: WebConnection] = [:]
    private var sessions: [String: WebConnection] = [:]
    private var deadlines: DeadlineTimer?
    private let pages: WebPages
    private let log: (String) -> Void

    /// What was refused at a bound since start (docs/LIMITS.md), for the log and the tests.
    public private(set) var refused: [String: Int] = [:]

    public init(loop: EventLoop, listener: FileDescriptor, settings: WebSettings, pages: WebPages, log: @escaping (String) -> Void)
        throws(SystemError)
    {
        self.loop = loop
        self.listener = listener
        self.settings = settings
        self.pages = pages
        self.log = log
        let port = TCPListener.localPort(listener)?.port ?? 0
        requestGuard = RequestGuard(port: port, extraHosts: settings.extraHosts, extraOrigins: settings.extraOrigins)
        try listener.setNonBlocking()
        deadlines = try loop.makeTimer { [unowned self] in self.expire() }
        try loop.register(fd: listener.rawValue) { [unowned self] _ in self.accept() }
    }

    /// Closes every connection: the daemon undoes what the pages changed.
    public func closeAll() {
        for connection in Array(connections.values) { close(connection) }
    }

    // MARK: Connections

    private func accept() {
        while true {
            let raw = cls_accept4(listener.rawValue, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
            guard raw >= 0 else { return }
            let fd = FileDescriptor(raw)
            guard connections.count < settings.limits.maximumConnections else {
                count("connections")
                let response = HTTPResponse.error(
                    .serviceUnavailable, code: "busy", "gestured-web is busy (\(settings.limits.maximumConnections) connections)")
                _ = UnixSocket.send(fd, response.serialized(keepAlive: false)[...])
                continue
            }
            let connection = WebConnection(fd: fd, now: loop.now())
            connections[raw] = connection
            do {
                try loop.register(fd: raw, events: [.readable, .hangup]) { [unowned self, unowned connection] events in
                    self.service(connection, events)
                }
            } catch {
                connections[raw] = nil
            }
        }
        rearm()
    }

    private func service(_ connection: WebConnection, _ events: EventLoop.Events) {
        if events.contains(.writable) { written(connection, connection.flush()) }
        guard connections[connection.fd.rawValue] === connection else { return }
        if events.contains(.readable) || events.contains(.hangup) || events.contains(.error) { receive(connection) }
        rearm()
    }

    private func receive(_ connection: WebConnection) {
        let maximum = settings.limits.maximumHead + settings.limits.maximumBody
        var ended = false
        do {
            while connection.input.count <= maximum, let n = try connection.fd.readAvailable(into: &connection.input, max: 4096) {
                if n == 0 {
                    ended = true
                    break
                }
            }
        } catch {
            ended = true
        }
        // A stream's page sends nothing more; what it sends is read and ignored.
        if connection.session != nil { connection.input.removeAll() }
        if ended { return close(connection) }
        guard !connection.input.isEmpty, !connection.closeAfterWrite else { return }
        connection.lastActive = loop.now()
        if connection.requestStarted == nil { connection.requestStarted = loop.now() }
        while connection.session == nil, !connection.closeAfterWrite {
            switch HTTPRequestParser.parse(connection.input[...], limits: settings.limits) {
            case .incomplete:
                return
            case .refused(let status, let message):
                count(status == .payloadTooLarge ? "bodies_too_large" : status == .headerFieldsTooLarge ? "heads_too_large" : "malformed")
                respond(connection, .error(status, code: "refused", message), keepAlive: false)
                return
            case .request(let request, let consumed):
                connection.input.removeFirst(consumed)
                connection.requestStarted = connection.input.isEmpty ? nil : loop.now()
                handle(request, on: connection)
            }
        }
    }

    private func respond(_ connection: WebConnection, _ response: HTTPResponse, keepAlive: Bool) {
        connection.queue(response.serialized(keepAlive: keepAlive))
        if !keepAlive { connection.closeAfterWrite = true }
        written(connection, connection.flush())
    }

    /// After a flush: wait for the socket when it is full, close when done and asked to.
    private func written(_ connection: WebConnection, _ outcome: WebConnection.Flush) {
        switch outcome {
        case .failed: close(connection)
        case .blocked: loop.modify(fd: connection.fd.rawValue, events: [.readable, .writable, .hangup])
        case .done:
            if connection.closeAfterWrite { return close(connection) }
            loop.modify(fd: connection.fd.rawValue, events: [.readable, .hangup])
        }
    }

    private func close(_ connection: WebConnection) {
        guard connections[connection.fd.rawValue] === connection else { return }
        loop.unregister(fd: connection.fd.rawValue)
        connections[connection.fd.rawValue] = nil
        if let session = connection.session {
            loop.unregister(fd: session.subscription.descriptor)
            sessions[session.id] = nil
            if session.control != nil { log("page session \(session.id.prefix(8)) ended: the daemon undoes its changes") }
            connection.session = nil
        }
    }

    // MARK: Deadlines

    /// The earliest deadline: a request being read must finish in `requestSeconds`, an idle
    /// keep-alive connection closes after `idleSeconds`; streams have none.
    private func rearm() {
        let limits = settings.limits
        let earliest = connections.values.compactMap { connection -> Microseconds? in
            if connection.session != nil { return nil }
            if let started = connection.requestStarted { return started + Microseconds(limits.requestSeconds * 1e6) }
            return connection.lastActive + Microseconds(limits.idleSeconds * 1e6)
        }.min()
        deadlines?.set(earliest)
    }

    private func expire() {
        let now = loop.now()
        let limits = settings.limits
        for connection in Array(connections.values) where connection.session == nil {
            if let started = connection.requestStarted, now >= started + Microseconds(limits.requestSeconds * 1e6) {
                count("requests_timed_out")
                respond(
                    connection, .error(.requestTimeout, code: "timeout", "the request did not arrive within \(limits.requestSeconds) s"),
                    keepAlive: false)
            } else if connection.requestStarted == nil, now >= connection.lastActive + Microseconds(limits.idleSeconds * 1e6) {
                close(connection)
            }
        }
        rearm()
    }

    private func count(_ what: String) { refused[what, default: 0] += 1 }

    // MARK: Requests

    private func handle(_ request: HTTPRequest, on connection: WebConnection) {
        if request.method == "OPTIONS" { return respond(connection, preflight(request), keepAlive: request.keepAlive) }
        let changesState = request.method == "POST"
        if let refusal = requestGuard.check(request, changesState: changesState) {
            count(refusal.code == "host" ? "hosts" : refusal.code == "origin" ? "origins" : "content_types")
            log("refused \(request.method) \(request.path): \(refusal.message)")
            return respond(connection, .error(refusal.status, code: refusal.code, refusal.message), keepAlive: false)
        }
        // nil: the connection became an event stream, which wrote its own head.
        guard var response = route(request, on: connection) else { return }
        response.headers += requestGuard.corsHeaders(request)
        respond(connection, response, keepAlive: request.keepAlive)
    }

    /// The response, or nil when the connection became an event stream.
    private func route(_ request: HTTPRequest, on connection: WebConnection) -> HTTPResponse? {
        switch (request.method, request.path) {
        case ("GET", "/"): return pages.liveView
        case ("GET", WebPages.modulePath): return pages.module
        case ("GET", "/example.html"): return pages.example
        case ("GET", "/picture.svg"): return pages.picture()
        case ("GET", "/events"): return openStream(request, on: connection)
        case ("GET", "/status"): return oneShot(.status) { .json(.ok, Array(($0.text + "\n").utf8)) }
        case ("GET", "/metrics"):
            return oneShot(.metrics) {
                HTTPResponse(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(($0.stringValue ?? "").utf8))
            }
        case ("POST", "/set"), ("POST", "/mode"), ("POST", "/reset"): return control(request, command: String(request.path.dropFirst()))
        case ("POST", "/reload"), ("POST", "/trigger"):
            let command = ControlCommand(rawValue: String(request.path.dropFirst()))!
            guard settings.exposed.contains(command) else {
                return .error(
                    .notFound, code: "not-exposed", "\(command.rawValue) is not exposed (gestured-web --expose \(command.rawValue))")
            }
            return forward(request, command: command.rawValue, through: nil)
        case (_, "/"), (_, WebPages.modulePath), (_, "/example.html"), (_, "/picture.svg"), (_, "/events"), (_, "/status"), (_, "/metrics"),
            (_, "/set"), (_, "/mode"), (_, "/reset"), (_, "/reload"), (_, "/trigger"):
            return .error(.methodNotAllowed, code: "method", "\(request.method) is not served at \(request.path)")
        default:
            return .error(.notFound, code: "not-found", "nothing at \(request.path)")
        }
    }

    private func preflight(_ request: HTTPRequest) -> HTTPResponse {
        let cors = requestGuard.corsHeaders(request)
        guard !cors.isEmpty, requestGuard.check(request, changesState: false) == nil else {
            count("origins")
            return .error(.forbidden, code: "origin", "origin '\(request.header("origin") ?? "")' may not use this bridge")
        }
        var response = HTTPResponse(.noContent, contentType: "text/plain", body: [])
        response.headers +=
            cors + [
                HTTPRequest.Pair("Access-Control-Allow-Methods", "GET, POST"),
                HTTPRequest.Pair("Access-Control-Allow-Headers", "Content-Type, Gestured-Session"),
                HTTPRequest.Pair("Access-Control-Max-Age", "600"),
            ]
        return response
    }

    private func client() throws(ControlClientError) -> ControlClient {
        try ControlClient(candidates: settings.socketCandidates, timeout: settings.limits.daemonReplySeconds)
    }

    /// `command` on a connection of its own, closed after the reply.
    private func oneShot(_ command: ControlCommand, _ body: (JSONValue) -> HTTPResponse) -> HTTPResponse {
        do {
            return body(try client().request(command))
        } catch {
            return Self.failure(error)
        }
    }

    // MARK: Event streams

    private func openStream(_ request: HTTPRequest, on connection: WebConnection) -> HTTPResponse? {
        guard sessions.count < settings.limits.maximumStreams else {
            count("streams")
            return .error(.serviceUnavailable, code: "busy", "gestured-web serves at most \(settings.limits.maximumStreams) event streams")
        }
        let subscription: ControlClient
        do {
            subscription = try client()
            let options = ["touches", "trace"].filter { request.queryValues($0).contains { $0 == "1" || $0 == "true" } }
            _ = try subscription.request(.subscribe, options.map { ($0, .bool(true)) })
            _ = fcntl(subscription.descriptor, F_SETFL, fcntl(subscription.descriptor, F_GETFL) | O_NONBLOCK)
        } catch {
            return Self.failure(error)
        }
        let session = PageSession(
            id: PageSession.newID(), subscription: subscription,
            filter: EventFilter(gestures: request.queryValues("gesture"), views: request.queryValues("view")))
        do {
            try loop.register(fd: subscription.descriptor, events: [.readable, .hangup]) { [unowned self, unowned connection] _ in
                self.forwardEvents(to: connection)
                self.rearm()
            }
        } catch {
            return .error(.serviceUnavailable, code: "unavailable", "\(error)")
        }
        connection.session = session
        connection.requestStarted = nil
        sessions[session.id] = connection
        // The page's reconnect is a new session: a new subscription, nothing replayed.
        var head = HTTPResponse(.ok, contentType: "text/event-stream", body: [])
        head.headers += requestGuard.corsHeaders(request)
        connection.queue(head.serialized(keepAlive: false, length: false))
        connection.queue(Array("retry: 2000\n\nevent: session\ndata: {\"session\":\"\(session.id)\"}\n\n".utf8))
        written(connection, connection.flush())
        forwardEvents(to: connection)
        return nil
    }

    private func forwardEvents(to connection: WebConnection) {
        guard let session = connection.session else { return }
        let read = session.read(maximum: 65536)
        switch read {
        case .events(let bytes), .ended(let bytes): connection.queue(bytes)
        }
        if case .ended = read {
            // The daemon stopped: the page's EventSource reconnects once it is back.
            loop.unregister(fd: session.subscription.descriptor)
            connection.closeAfterWrite = true
        }
        if connection.pending > settings.limits.streamQueueBytes {
            count("slow_streams")
            log("page session \(session.id.prefix(8)) fell \(connection.pending) bytes behind: its stream is closed")
            return close(connection)
        }
        written(connection, connection.flush())
    }

    // MARK: Runtime changes

    /// `set`, `mode`, `reset` through the page session's own control connection (named by
    /// the `Gestured-Session` header or `?session=`); without a session only with `keep`.
    private func control(_ request: HTTPRequest, command: String) -> HTTPResponse {
        let id = request.header("gestured-session") ?? request.queryValues("session").first
        guard let id else {
            return forward(request, command: command, through: nil, needsKeep: true)
        }
        guard let session = sessions[id]?.session else {
            return .error(
                .conflict, code: "no-session", "no page session \(id.prefix(8)): its event stream closed, and its changes were undone")
        }
        if session.control == nil {
            do { session.control = try client() } catch { return Self.failure(error) }
        }
        return forward(request, command: command, through: session.control)
    }

    /// Sends `{"cmd": command, ...body's members}` and answers with the daemon's reply line.
    private func forward(_ request: HTTPRequest, command: String, through session: ControlClient?, needsKeep: Bool = false) -> HTTPResponse
    {
        var members: [(String, JSONValue)] = []
        if !request.body.isEmpty {
            guard case .object(let given)? = try? JSONParser.parse(request.body) else {
                return .error(.badRequest, code: "bad-request", "the body must be one JSON object (the command's members)")
            }
            members = given
        }
        if members.contains(where: { $0.0 == "cmd" }) {
            return .error(.badRequest, code: "bad-request", "the command is the path; the body has no \"cmd\"")
        }
        if needsKeep, !members.contains(where: { $0.0 == "keep" && $0.1 == .bool(true) }), !(command == "reset") {
            return .error(
                .conflict, code: "no-session",
                "a change belongs to a page session (open /events and send its Gestured-Session header), or give \"keep\": true")
        }
        do throws(ControlClientError) {
            let client: ControlClient
            if let session { client = session } else { client = try self.client() }
            try client.send(.object([("cmd", .string(command))] + members))
            guard let line = try client.readLine() else { throw .protocolViolation("connection closed before the reply") }
            let reply = try? JSONParser.parse(line)
            let status = reply?["ok"] != nil ? HTTPStatus.ok : Self.status(ofDaemonError: reply?["error"]?["code"]?.stringValue)
            return .json(status, line + [10])
        } catch {
            return Self.failure(error)
        }
    }

    static func status(ofDaemonError code: String?) -> HTTPStatus {
        switch code {
        case "forbidden": .forbidden
        case "busy", "unavailable": .serviceUnavailable
        case "too-many-changes": .tooManyRequests
        default: .badRequest
        }
    }

    /// The daemon could not be asked, as an HTTP answer.
    static func failure(_ error: ControlClientError) -> HTTPResponse {
        switch error {
        case .daemon(let refusal): .error(status(ofDaemonError: refusal.code), code: refusal.code, refusal.message)
        case .protocolViolation(let what) where what.contains("in time"):
            .error(.gatewayTimeout, code: "timeout", "gestured did not answer in time")
        default: .error(.badGateway, code: "daemon", error.description)
        }
    }
}
