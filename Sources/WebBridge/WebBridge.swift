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
/// connection is non-blocking, the daemon's too: a request that needs the daemon waits
/// for its reply on the loop (`DaemonChannel`), so one slow reply stalls no other page.
/// Nothing is read without a bound (`WebLimits`); with no page connected and no request
/// under way, no timer is armed and the loop sleeps.
public final class WebBridge {
    private let loop: EventLoop
    private let settings: WebSettings
    private let listener: FileDescriptor
    public let requestGuard: RequestGuard
    private var connections: [Int32: WebConnection] = [:]
    private var sessions: [String: WebConnection] = [:]
    private var subscriptions: [SharedSubscription.Kind: SharedSubscription] = [:]
    /// Every control connection open, by descriptor: subscriptions, page sessions' own, one-shots.
    private var channels: [Int32: DaemonChannel] = [:]
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
        for channel in Array(channels.values) { closeChannel(channel) }
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
        // Requests piled up behind one waiting for the daemon, beyond what one request may
        // be: the socket would stay readable with nothing taken from it.
        if case .awaitingDaemon = connection.state, connection.input.count > maximum {
            count("pipelined")
            return close(connection)
        }
        guard !connection.input.isEmpty, !connection.closeAfterWrite else { return }
        connection.lastActive = loop.now()
        if connection.requestStarted == nil { connection.requestStarted = loop.now() }
        serveBuffered(connection)
    }

    /// Handles the whole requests read, in order, until one waits for the daemon or streams.
    private func serveBuffered(_ connection: WebConnection) {
        while case .requests = connection.state, !connection.closeAfterWrite, !connection.input.isEmpty {
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
        guard isOpen(connection) else { return }
        loop.unregister(fd: connection.fd.rawValue)
        connections[connection.fd.rawValue] = nil
        if let session = connection.session {
            sessions[session.id] = nil
            if let control = session.control {
                log("page session \(session.id.prefix(8)) ended: the daemon undoes its changes")
                closeChannel(control)
            }
        }
        // A page waiting for its stream is forgotten as one streaming is.
        for subscription in Array(subscriptions.values) {
            subscription.remove(connection)
            if subscription.isEmpty { endSubscription(subscription) }
        }
        connection.state = .requests
    }

    private func isOpen(_ connection: WebConnection) -> Bool { connections[connection.fd.rawValue] === connection }

    // MARK: Deadlines

    /// The earliest deadline: a request being read must finish in `requestSeconds`, an idle
    /// keep-alive connection closes after `idleSeconds`, the daemon's reply to a request
    /// is due in `daemonReplySeconds`; streams have none.
    private func rearm() {
        let limits = settings.limits
        let earliest = connections.values.compactMap { connection -> Microseconds? in
            guard case .requests = connection.state else { return nil }
            if let started = connection.requestStarted { return started + Microseconds(limits.requestSeconds * 1e6) }
            return connection.lastActive + Microseconds(limits.idleSeconds * 1e6)
        }
        deadlines?.set((earliest + channels.values.compactMap(\.deadline)).min())
    }

    private func expire() {
        let now = loop.now()
        let limits = settings.limits
        // A reply past its deadline answers its request 504 (DaemonChannel.expire).
        for channel in Array(channels.values) { channel.expire(now: now) }
        for connection in Array(connections.values) where isOpen(connection) {
            guard case .requests = connection.state else { continue }
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
        // nil: the answer comes with the daemon's reply, or the connection became an event stream.
        guard let response = route(request, on: connection) else { return }
        answer(request, on: connection, with: response)
    }

    /// Answers `request` (with its CORS headers), then goes on with the requests read after it.
    private func answer(_ request: HTTPRequest, on connection: WebConnection, with response: HTTPResponse) {
        guard isOpen(connection) else { return }
        var response = response
        response.headers += requestGuard.corsHeaders(request)
        connection.state = .requests
        connection.lastActive = loop.now()
        respond(connection, response, keepAlive: request.keepAlive)
        serveBuffered(connection)
    }

    /// The response, or nil when it comes later (the daemon's reply) or the connection
    /// became an event stream.
    private func route(_ request: HTTPRequest, on connection: WebConnection) -> HTTPResponse? {
        switch (request.method, request.path) {
        case ("GET", "/"): return pages.liveView
        case ("GET", WebPages.modulePath): return pages.module
        case ("GET", "/example.html"): return pages.example
        case ("GET", "/picture.svg"):
            // Without the daemon, the config as written.
            return ask("status", for: request, on: connection) { [pages] in pages.picture(try? $0.flatMap(Self.okValue(of:)).get()) }
        case ("GET", "/events"): return openStream(request, on: connection)
        case ("GET", "/status"):
            return ask("status", for: request, on: connection) { reply in
                Self.response(to: reply) { .json(.ok, Array(($0.text + "\n").utf8)) }
            }
        case ("GET", "/metrics"):
            return ask("metrics", for: request, on: connection) { reply in
                Self.response(to: reply) {
                    HTTPResponse(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(($0.stringValue ?? "").utf8))
                }
            }
        case ("POST", "/set"), ("POST", "/mode"), ("POST", "/reset"):
            return control(request, command: String(request.path.dropFirst()), on: connection)
        case ("POST", "/reload"), ("POST", "/trigger"):
            let command = ControlCommand(rawValue: String(request.path.dropFirst()))!
            guard settings.exposed.contains(command) else {
                return .error(
                    .notFound, code: "not-exposed", "\(command.rawValue) is not exposed (gestured-web --expose \(command.rawValue))")
            }
            return forward(request, command: command.rawValue, through: nil, on: connection)
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

    // MARK: The daemon

    /// A new control connection on the loop.
    private func openChannel() throws(ControlClientError) -> DaemonChannel {
        let channel = try DaemonChannel(candidates: settings.socketCandidates)
        do {
            try loop.register(fd: channel.descriptor, events: [.readable, .hangup]) { [unowned self, unowned channel] _ in
                self.receive(channel)
                self.rearm()
            }
        } catch {
            throw .io(error)
        }
        channels[channel.descriptor] = channel
        return channel
    }

    private func closeChannel(_ channel: DaemonChannel) {
        guard channels[channel.descriptor] === channel else { return }
        loop.unregister(fd: channel.descriptor)
        channels[channel.descriptor] = nil
    }

    /// What the daemon sent on `channel`: replies complete their requests inside `receive`,
    /// a subscription's lines go to its pages.
    private func receive(_ channel: DaemonChannel) {
        let (lines, ended) = channel.receive(maximum: 65536)
        if let subscription = subscriptions.values.first(where: { $0.channel === channel }), case .streaming = subscription.state {
            forward(subscription, lines.map(SharedSubscription.Line.init), ended: ended)
        }
        guard ended else { return }
        closeChannel(channel)
        // The daemon stopped: a page session's next change opens a new connection.
        for connection in sessions.values where connection.session?.control === channel { connection.session?.control = nil }
    }

    /// Sends `command` on `channel`, or on a connection of its own closed after the reply,
    /// and answers `request` with `respond(reply)` once the daemon's line comes, or it
    /// failed (`.protocolViolation("no reply in time")` after `daemonReplySeconds`, which
    /// `failure` makes a 504). nil: the answer comes later.
    private func ask(
        _ command: String, _ members: [(String, JSONValue)] = [], through channel: DaemonChannel? = nil, for request: HTTPRequest,
        on connection: WebConnection, _ respond: @escaping (DaemonChannel.Reply) -> HTTPResponse
    ) -> HTTPResponse? {
        let target: DaemonChannel
        if let channel {
            target = channel
        } else {
            do { target = try openChannel() } catch { return respond(.failure(error)) }
        }
        connection.state = .awaitingDaemon
        target.request(command, members, deadline: replyDeadline()) { [unowned self] reply in
            if channel == nil { self.closeChannel(target) }
            self.answer(request, on: connection, with: respond(reply))
        }
        return nil
    }

    private func replyDeadline() -> Microseconds { loop.now() + Microseconds(settings.limits.daemonReplySeconds * 1e6) }

    /// The reply's `ok` value, or why there is none.
    static func okValue(of line: [UInt8]) -> Result<JSONValue, ControlClientError> {
        guard let reply = try? JSONParser.parse(line) else { return .failure(.protocolViolation("a reply that is not JSON")) }
        if let ok = reply["ok"] { return .success(ok) }
        guard let error = reply["error"] else { return .failure(.protocolViolation("neither ok nor error")) }
        return .failure(.daemon(ControlError(code: error["code"]?.stringValue ?? "?", message: error["message"]?.stringValue ?? "?")))
    }

    /// `body` of the reply's `ok` value, or the failure or the daemon's refusal as an HTTP answer.
    static func response(to reply: DaemonChannel.Reply, _ body: (JSONValue) -> HTTPResponse) -> HTTPResponse {
        switch reply.flatMap(okValue(of:)) {
        case .success(let ok): body(ok)
        case .failure(let error): failure(error)
        }
    }

    // MARK: Event streams

    private func openStream(_ request: HTTPRequest, on connection: WebConnection) -> HTTPResponse? {
        let waiting = subscriptions.values.reduce(0) { count, subscription in
            guard case .subscribing(let waiting) = subscription.state else { return count }
            return count + waiting.count
        }
        guard sessions.count + waiting < settings.limits.maximumStreams else {
            count("streams")
            return .error(.serviceUnavailable, code: "busy", "gestured-web serves at most \(settings.limits.maximumStreams) event streams")
        }
        let asked = { (name: String) in request.queryValues(name).contains { $0 == "1" || $0 == "true" } }
        let kind = SharedSubscription.Kind(touches: asked("touches"), trace: asked("trace"))
        let page = SharedSubscription.Waiting(connection: connection, request: request)
        if let subscription = subscriptions[kind] {
            switch subscription.state {
            case .streaming: startStream(page, on: subscription)
            case .subscribing(let waiting):
                connection.state = .awaitingDaemon
                subscription.state = .subscribing(waiting + [page])
            }
            return nil
        }
        let channel: DaemonChannel
        do { channel = try openChannel() } catch { return Self.failure(error) }
        let subscription = SharedSubscription(kind: kind, channel: channel, first: page)
        subscriptions[kind] = subscription
        connection.state = .awaitingDaemon
        channel.request("subscribe", kind.options, deadline: replyDeadline(), opensStream: true) { [unowned self] result in
            self.subscribed(subscription, result)
        }
        return nil
    }

    /// The daemon's answer to a subscription's `subscribe`: the pages waiting for it get
    /// their streams, or the refusal.
    private func subscribed(_ subscription: SharedSubscription, _ result: DaemonChannel.Reply) {
        guard case .subscribing(let waiting) = subscription.state else { return }
        if case .failure(let error) = result.flatMap(Self.okValue(of:)) {
            endSubscription(subscription)
            for page in waiting { answer(page.request, on: page.connection, with: Self.failure(error)) }
            return
        }
        subscription.state = .streaming
        for page in waiting where isOpen(page.connection) { startStream(page, on: subscription) }
        if subscription.isEmpty { endSubscription(subscription) }
    }

    /// The page's stream from a subscription the daemon accepted: its session, then the lines.
    private func startStream(_ page: SharedSubscription.Waiting, on subscription: SharedSubscription) {
        let (request, connection) = (page.request, page.connection)
        let session = PageSession(
            id: PageSession.newID(), filter: EventFilter(gestures: request.queryValues("gesture"), views: request.queryValues("view")),
            subscription: subscription)
        subscription.pages.append(connection)
        connection.state = .stream(session)
        connection.requestStarted = nil
        sessions[session.id] = connection
        // The page's reconnect is a new session: nothing is replayed.
        var head = HTTPResponse(.ok, contentType: "text/event-stream", body: [])
        head.headers += requestGuard.corsHeaders(request)
        connection.queue(head.serialized(keepAlive: false, length: false))
        connection.queue(Array("retry: 2000\n\nevent: session\ndata: {\"session\":\"\(session.id)\"}\n\n".utf8))
        written(connection, connection.flush())
    }

    /// The subscription's new lines to each of its pages, through the page's filter.
    private func forward(_ subscription: SharedSubscription, _ lines: [SharedSubscription.Line], ended: Bool) {
        var lines = lines
        for connection in subscription.pages {
            guard let session = connection.session else { continue }
            var bytes: [UInt8] = []
            for i in lines.indices where lines[i].passes(session.filter) { bytes += lines[i].event }
            connection.queue(bytes)
            // The daemon stopped: the page's EventSource reconnects once it is back.
            if ended { connection.closeAfterWrite = true }
            if connection.pending > settings.limits.streamQueueBytes {
                count("slow_streams")
                log("page session \(session.id.prefix(8)) fell \(connection.pending) bytes behind: its stream is closed")
                close(connection)
                continue
            }
            written(connection, connection.flush())
        }
        if ended { endSubscription(subscription) }
    }

    private func endSubscription(_ subscription: SharedSubscription) {
        guard subscriptions[subscription.kind] === subscription else { return }
        closeChannel(subscription.channel)
        subscriptions[subscription.kind] = nil
    }

    // MARK: Runtime changes

    /// `set`, `mode`, `reset` through the page session's own control connection (named by
    /// the `Gestured-Session` header or `?session=`); without a session only with `keep`.
    private func control(_ request: HTTPRequest, command: String, on connection: WebConnection) -> HTTPResponse? {
        let id = request.header("gestured-session") ?? request.queryValues("session").first
        guard let id else {
            return forward(request, command: command, through: nil, needsKeep: true, on: connection)
        }
        guard let session = sessions[id]?.session else {
            return .error(
                .conflict, code: "no-session", "no page session \(id.prefix(8)): its event stream closed, and its changes were undone")
        }
        if session.control == nil {
            guard sessions.values.count(where: { $0.session?.control != nil }) < settings.limits.maximumControlSessions else {
                count("control_sessions")
                return .error(
                    .serviceUnavailable, code: "busy",
                    "gestured-web holds at most \(settings.limits.maximumControlSessions) pages' control connections")
            }
            do { session.control = try openChannel() } catch { return Self.failure(error) }
        }
        return forward(request, command: command, through: session.control, on: connection)
    }

    /// Sends `{"cmd": command, ...body's members}` and answers with the daemon's reply line.
    private func forward(
        _ request: HTTPRequest, command: String, through channel: DaemonChannel?, needsKeep: Bool = false, on connection: WebConnection
    ) -> HTTPResponse? {
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
        return ask(command, members, through: channel, for: request, on: connection) { reply in
            let line: [UInt8]
            switch reply {
            case .success(let given): line = given
            case .failure(let error): return Self.failure(error)
            }
            let parsed = try? JSONParser.parse(line)
            let status = parsed?["ok"] != nil ? HTTPStatus.ok : Self.status(ofDaemonError: parsed?["error"]?["code"]?.stringValue)
            return .json(status, line + [10])
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
