import ActionDispatch
import CLinuxShims
import GestureControl
import GestureCore
import JSONOutput
import LinuxSystem
import Logging
import SystemLoop
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// The control and event socket: a Unix stream socket speaking JSON lines. Requests are
/// `{"cmd": ...}` objects, replies `{"ok": ...}` or `{"error": {"code", "message"}}`;
/// `subscribe` turns a connection into an event stream. Nothing a client sends or fails to
/// read can stall the loop or lock others out: every request line is bounded in size and
/// time, each connection gets a read budget per wake, idle connections are closed (and the
/// oldest idle one makes room when the table is full), and a subscriber's backlog is
/// bounded in bytes. Replies to requests always arrive whole.
public final class ControlServer {
    /// The longest request line accepted.
    public static let maximumRequest = 64 * 1024
    /// How long a started request line may take to finish.
    public static let requestTimeout: Microseconds = 5_000_000
    /// Connections served at once. When all are taken, the one idle longest (at least
    /// `evictAfter`) makes room; with none idle, more are answered `busy` and closed.
    public static let maximumConnections = 64
    /// How long a connection that is not a subscriber may sit without a request.
    public var idleTimeout: Microseconds = 30_000_000
    /// How long a connection must have been idle to be closed for a newcomer.
    public var evictAfter: Microseconds = 1_000_000

    public let path: String
    private let loop: EventLoop
    private let logger: Logger
    private let listener: FileDescriptor
    private weak var handler: ControlHandler?
    private var connections: [Int32: ControlConnection] = [:]
    /// The connections in subscriber mode, kept apart so that publishing allocates nothing.
    private var subscribers: [ControlConnection] = []
    private var requestTimer: DeadlineTimer!
    private var writer = JSONWriter()
    /// Bytes buffered per subscriber before it is dropped (`[daemon] subscriber_buffer`).
    public var subscriberBuffer: Int
    /// Subscribers dropped for not keeping up.
    public private(set) var droppedSubscribers = 0
    /// Connections answered `busy` and closed because the table was full.
    public private(set) var refusedConnections = 0
    /// Request lines refused for being longer than `maximumRequest`.
    public private(set) var oversizedRequests = 0
    /// Idle connections closed to make room for a new one.
    public private(set) var evictedConnections = 0
    private var busyRun = FailureRun()
    private var oversizedRun = FailureRun()
    private var descriptorRun = FailureRun()
    /// Held open so that, out of descriptors (EMFILE/ENFILE), closing it makes room to accept
    /// and refuse the waiting client: without that it stays in the backlog, the listener
    /// stays readable, and the level-triggered loop spins on it.
    private var spare: FileDescriptor?
    /// Re-watches the listener when no spare descriptor could be had.
    private var listenerTimer: DeadlineTimer!

    /// Who may use which command.
    public let authorizer: ControlAuthorizer
    /// Reads a new connection's peer credentials; tests put in another user's, since they
    /// cannot change their own uid.
    var peerCredentials: (FileDescriptor) throws -> PeerCredentials = { try PeerCredentials.of($0) }
    /// Numbers connections for their owner identity (`ControlPeer.id`), from 1.
    private var connectionCount = 0

    /// Binds `path` (replacing a stale socket, refusing a live one), sets its mode and
    /// group (plus an ACL entry that lets `controlGroup` connect), and starts accepting.
    public init(
        loop: EventLoop, path: String, mode: UInt32 = 0o660, group: String? = nil, controlGroup: String? = nil,
        subscriberBuffer: Int = 65_536, handler: ControlHandler, logger: Logger
    ) throws(SystemError) {
        self.path = path
        self.loop = loop
        self.logger = logger
        self.handler = handler
        self.subscriberBuffer = subscriberBuffer
        try ControlServer.makeParentDirectory(of: path)
        try ControlServer.removeStaleSocket(at: path)
        listener = try UnixSocket.make(datagram: false)
        try UnixSocket.bind(listener, to: path)
        // Clients cannot connect before listen(), so setting the mode here leaves no window.
        guard chmod(path, mode_t(mode)) == 0 else { throw SystemError("chmod", path) }
        var adminGroup = ControlAuthorizer.Group(name: GroupDatabase.name(of: getegid()) ?? "\(getegid())", id: getegid())
        if let group {
            adminGroup = ControlAuthorizer.Group(name: group, id: try ControlServer.groupID(group, key: "socket_group"))
            guard chown(path, uid_t.max, adminGroup.id) == 0 else { throw SystemError("chown to group \(group)", path) }
        }
        let control = try controlGroup.map { name throws(SystemError) in
            ControlAuthorizer.Group(name: name, id: try ControlServer.groupID(name, key: "control_group"))
        }
        if let control { try GroupACL.grant(control.id, on: path, mode: mode) }
        authorizer = ControlAuthorizer(adminGroup: adminGroup, controlGroup: control)
        guard listen(listener.rawValue, 16) == 0 else { throw SystemError("listen", path) }
        requestTimer = try loop.makeTimer { [unowned self] in self.expireSlowRequests() }
        listenerTimer = try loop.makeTimer { [unowned self] in self.resumeListening() }
        reopenSpare()
        try loop.register(fd: listener.rawValue) { [unowned self] _ in self.acceptAll() }
    }

    private var closed = false

    deinit { close() }

    /// Stops serving: closes every connection and removes the socket file. Call it at
    /// shutdown (a process that exits does not run deinitializers).
    public func close() {
        guard !closed else { return }
        closed = true
        loop.unregister(fd: listener.rawValue)
        for fd in connections.keys { loop.unregister(fd: fd) }
        connections.removeAll()
        subscribers.removeAll()
        unlink(path)
    }

    /// Connections that subscribed to events.
    public var subscriberCount: Int { subscribers.count }

    /// True when some subscriber asked for the transition trace (format it only then).
    public var wantsTrace: Bool { subscribers.contains { $0.mode == .subscriber(trace: true) } }

    /// True when some subscriber asked for the contacts (collect them only then).
    public var wantsTouches: Bool { subscribers.contains { $0.wantsTouches } }

    /// True when some subscriber asked for `changed` at the display's pace (pace them only then).
    public var wantsCoalesced: Bool { subscribers.contains { $0.coalesces } }

    /// The server's part of `status`.
    public var status: ControlStatus {
        var status = ControlStatus(path: path)
        status.values[ControlMetrics.connections] = Double(connections.count)
        status.values[ControlMetrics.subscribers] = Double(subscriberCount)
        status.values[ControlMetrics.droppedSubscribers] = Double(droppedSubscribers)
        status.values[ControlMetrics.evictedConnections] = Double(evictedConnections)
        return status
    }

    /// Sends one event to every subscriber; a `changed` that is paced for coalescing
    /// subscribers (`paced`) only to the others.
    public func publish(_ event: GestureEvent, names: GestureNames, origin: Microseconds, paced: Bool = false) {
        guard !subscribers.isEmpty else { return }
        EventJSON.line(event, names: names, origin: origin, into: &writer)
        publish(line: writer.bytes, trace: false, coalescing: paced && event.state == .changed ? false : nil)
    }

    /// Sends a `changed` at the display's pace, standing for `coalesced` of them, to the
    /// coalescing subscribers.
    public func publish(paced event: GestureEvent, coalesced: Int, names: GestureNames, origin: Microseconds) {
        guard !subscribers.isEmpty else { return }
        EventJSON.line(event, names: names, origin: origin, coalesced: coalesced, into: &writer)
        publish(line: writer.bytes, trace: false, coalescing: true)
    }

    /// Sends one JSON line (newline included) to every subscriber, or, for a trace record
    /// or a contact, only to those that asked for them; `coalescing`, only to the
    /// subscribers that coalesce (true) or to the others (false). Subscribers that overflow
    /// are dropped.
    public func publish(line: [UInt8], trace: Bool, touches: Bool = false, coalescing: Bool? = nil) {
        // Backwards, so that dropping one does not skip the next; an index loop, as an
        // unspecialized iterator allocates in a debug build.
        var index = subscribers.count
        while index > 0 {
            index -= 1
            let connection = subscribers[index]
            guard case .subscriber(let wantsTrace) = connection.mode, wantsTrace || !trace,
                connection.wantsTouches || !touches, coalescing.map({ $0 == connection.coalesces }) ?? true
            else { continue }
            switch connection.send(line) {
            case .sent:
                updateInterest(connection)
            case .overflow:
                droppedSubscribers += 1
                logger.warning("control: subscriber on fd \(connection.fd.rawValue) fell \(subscriberBuffer) bytes behind; disconnected")
                drop(connection)
            case .failed:
                drop(connection)
            }
        }
    }

    /// True while some connection has output the socket has not taken yet.
    public var hasPendingOutput: Bool { connections.values.contains { $0.hasPendingOutput } }

    /// The event stream's last line, before the daemon closes it:
    /// `{"t": ..., "stopping": true, "reason": "SIGTERM"}`. Subscribers stop being fed.
    public func publishStopping(reason: String, time: Microseconds, origin: Microseconds) {
        EventJSON.stoppingLine(reason: reason, time: time, origin: origin, into: &writer)
        publish(line: writer.bytes, trace: false)
    }

    private func acceptAll() {
        defer { armRequestTimer() }
        while true {
            let raw = acceptOne()
            guard raw >= 0 else {
                let code = errno
                if code == EMFILE || code == ENFILE { return refuseOutOfDescriptors(code) }
                if code != EAGAIN && code != EWOULDBLOCK {
                    logger.warning("control: \(SystemError("accept", path))")
                }
                return
            }
            if let count = descriptorRun.end() {
                logger.warning("control: \(count) connections were refused while out of file descriptors")
            }
            if spare == nil { reopenSpare() }
            let now = loop.now()
            let fd = FileDescriptor(raw)
            let credentials: PeerCredentials
            do {
                credentials = try peerCredentials(fd)
            } catch {
                logger.warning("control: \(error); connection refused")
                continue
            }
            connectionCount += 1
            let connection = ControlConnection(
                fd: fd, peer: ControlPeer(id: connectionCount, credentials: credentials, connected: now), outputLimit: subscriberBuffer,
                now: now)
            guard connections.count < ControlServer.maximumConnections || evictIdle(now: now) else {
                refusedConnections += 1
                if busyRun.fail() {
                    logger.warning(
                        "control: refusing connections: all \(ControlServer.maximumConnections) are in use and none is idle (busy)",
                        metadata: .journal(.limitReached, limit: .connections))
                }
                reply(
                    connection,
                    .failure(ControlError(code: "busy", message: "gestured is busy (\(ControlServer.maximumConnections) connections)")))
                continue
            }
            if let count = busyRun.end() { logger.warning("control: \(count) connections were refused while all were in use") }
            do {
                try loop.register(fd: raw) { [unowned self, unowned connection] events in self.serve(connection, events) }
                connections[raw] = connection
            } catch {
                logger.warning("control: \(error)")
            }
        }
    }

    /// Out of descriptors: frees the spare one to accept the waiting client and answer it
    /// `busy`, logging once per run. Without a spare, stops watching the listener for a
    /// while (clients wait in the backlog) rather than spin on it.
    private func refuseOutOfDescriptors(_ code: Int32) {
        if descriptorRun.fail() {
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            let which = code == EMFILE ? "gestured's limit (RLIMIT_NOFILE \(limit.rlim_cur))" : "the system's limit (fs.file-max)"
            logger.warning(
                "control: \(SystemError("accept", path, errno: code, hint: "out of file descriptors at \(which); new clients are answered busy until some close. Raise LimitNOFILE= in the unit or find what holds them (ls /proc/\(getpid())/fd)"))",
                metadata: .journal(.limitReached, limit: .fileDescriptors)
            )
        }
        guard spare != nil else {
            loop.unregister(fd: listener.rawValue)
            listenerTimer.set(loop.now() + 100_000)
            return
        }
        spare = nil  // closes it: room for one accept
        let raw = acceptOne()
        if raw >= 0 {
            refusedConnections += 1
            let connection = ControlConnection(fd: FileDescriptor(raw), peer: nil, outputLimit: subscriberBuffer, now: loop.now())
            reply(connection, .failure(ControlError(code: "busy", message: "gestured is out of file descriptors; try again later")))
        }
        reopenSpare()
        // Accepted one: more may wait; the listener stays readable, so the loop comes back.
    }

    private func acceptOne() -> Int32 {
        retryingInterrupted { cls_accept4(listener.rawValue, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)) }
    }

    private func reopenSpare() { spare = try? FileDescriptor.open("/dev/null", O_RDONLY) }

    private func resumeListening() {
        guard !closed else { return }
        reopenSpare()
        do {
            try loop.register(fd: listener.rawValue) { [unowned self] _ in self.acceptAll() }
        } catch {
            listenerTimer.set(loop.now() + 100_000)
        }
    }

    /// Closes the connection idle longest, if one has been idle `evictAfter`; true when
    /// there is room now.
    private func evictIdle(now: Microseconds) -> Bool {
        var oldest: ControlConnection?
        for connection in connections.values where connection.isIdle && now - connection.lastActive >= evictAfter {
            if oldest.map({ connection.lastActive < $0.lastActive }) ?? true { oldest = connection }
        }
        guard let oldest else { return false }
        evictedConnections += 1
        logger.debug("control: closing idle fd \(oldest.fd.rawValue) to make room for a new connection")
        reply(
            oldest,
            .failure(
                ControlError(
                    code: "evicted",
                    message: "closed to make room for another client (idle, all \(ControlServer.maximumConnections) connections in use)")))
        drop(oldest)
        return true
    }

    private func serve(_ connection: ControlConnection, _ events: EventLoop.Events) {
        defer { armRequestTimer() }
        if events.contains(.writable) || connection.hasPendingOutput {
            guard connection.flush(now: loop.now()) else { return drop(connection) }
            if !connection.hasPendingOutput && connection.closeAfterFlush { return drop(connection) }
        }
        guard !connection.closeAfterFlush else { return updateInterest(connection) }
        let wantsRead = !events.isDisjoint(with: [.readable, .hangup, .error])
        if connection.mode != .requests {
            // A subscriber has nothing more to ask; its input is read only to see it close.
            if wantsRead {
                if case .closed = connection.read() { return drop(connection) }
                connection.discardInput()
            }
            return updateInterest(connection)
        }
        // A request connection whose replies wait is not read: it waits on itself.
        if wantsRead && !connection.hasPendingOutput, case .closed = connection.read() { return drop(connection) }
        answerLines(connection)
        if connections[connection.fd.rawValue] != nil { updateInterest(connection) }
    }

    /// Answers the complete lines read so far, until a reply has to wait for the client.
    private func answerLines(_ connection: ControlConnection) {
        let now = loop.now()
        while connections[connection.fd.rawValue] != nil, connection.mode == .requests, !connection.hasPendingOutput,
            !connection.closeAfterFlush
        {
            switch connection.nextLine(maximumLine: ControlServer.maximumRequest, now: now) {
            case .none:
                return
            case .oversized:
                oversizedRequests += 1
                let error = ControlError(code: "too-large", message: "request longer than \(ControlServer.maximumRequest) bytes")
                if oversizedRun.fail() { logger.notice("control: \(error.message); closing fd \(connection.fd.rawValue)") }
                return fatal(connection, error, quietly: true)
            case .line(let line):
                guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { continue }
                if let count = oversizedRun.end() { logger.notice("control: \(count) requests were refused as too large") }
                answer(connection, line)
            }
        }
    }

    /// Watches for output room while a reply or events wait; reads requests only when none do.
    private func updateInterest(_ connection: ControlConnection) {
        let wanted: EventLoop.Events =
            !connection.hasPendingOutput
            ? .readable
            : connection.mode == .requests ? .writable : [.readable, .writable]
        guard wanted != connection.interest else { return }
        connection.interest = wanted
        loop.modify(fd: connection.fd.rawValue, events: wanted)
    }

    private func answer(_ connection: ControlConnection, _ line: ArraySlice<UInt8>) {
        let request: JSONValue
        do {
            request = try JSONParser.parse(line)
        } catch {
            return reply(connection, .failure(ControlError(code: "malformed", message: "request is not JSON: \(error)")))
        }
        guard let name = request["cmd"]?.stringValue else {
            return reply(connection, .failure(.badRequest(#"expected an object like {"cmd": "status"}"#)))
        }
        guard let handler, let peer = connection.peer else {
            return reply(connection, .failure(ControlError(code: "unavailable", message: "the daemon is shutting down")))
        }
        guard let command = ControlCommand(rawValue: name) else {
            return reply(
                connection,
                .failure(ControlError(code: "unknown-command", message: "unknown command \"\(name)\"; known: \(ControlCommand.known)")))
        }
        if let refusal = authorizer.refusal(of: command, for: peer.credentials) {
            // Once per connection: a client that retries cannot flood the journal.
            if !connection.wasRefused {
                connection.wasRefused = true
                logger.notice(
                    "control: refused \(name) to \(peer): \(authorizer.access(of: peer.credentials)) access",
                    metadata: .journal(.commandRefused, command: name, client: peer.credentials))
            }
            return reply(connection, .failure(refusal))
        }
        if ControlCommand.runtime.contains(command) { connection.ownsChanges = true }
        do {
            switch try command.request(request) {
            case .subscribe(let options): subscribe(connection, options)
            case .daemon(let request): reply(connection, handler.handle(request, from: peer))
            }
        } catch {
            reply(connection, .failure(error))
        }
    }

    /// Turns the connection into an event stream.
    private func subscribe(_ connection: ControlConnection, _ options: SubscribeRequest) {
        connection.mode = .subscriber(trace: options.trace)
        connection.wantsTouches = options.touches
        connection.coalesces = options.coalesce
        subscribers.append(connection)
        UnixSocket.setSendBuffer(connection.fd, subscriberBuffer)
        reply(
            connection,
            .success(
                .object([
                    ("subscribed", .bool(true)), ("trace", .bool(options.trace)), ("touches", .bool(options.touches)),
                    ("coalesce", .bool(options.coalesce)),
                ])))
    }

    private func reply(_ connection: ControlConnection, _ result: ControlReply) {
        writer.reset()
        writer.beginObject()
        switch result {
        case .success(let value):
            writer.key("ok")
            writer.value(value)
        case .failure(let error):
            writer.key("error")
            writer.value(error.json)
        }
        writer.endObject()
        writer.newline()
        switch connection.send(writer.bytes) {
        case .sent: break
        case .overflow:
            // Only a subscriber has a limit (its reply to `subscribe` comes before events).
            logger.warning("control: client on fd \(connection.fd.rawValue) does not read its replies; disconnected")
            return drop(connection)
        case .failed:
            return drop(connection)
        }
    }

    /// Replies with an error, then closes once the reply is out.
    private func fatal(_ connection: ControlConnection, _ error: ControlError, quietly: Bool = false) {
        if !quietly { logger.notice("control: \(error.message); closing fd \(connection.fd.rawValue)") }
        reply(connection, .failure(error))
        guard connections[connection.fd.rawValue] != nil else { return }
        if connection.hasPendingOutput {
            connection.closeAfterFlush = true
            updateInterest(connection)
        } else {
            drop(connection)
        }
    }

    private func drop(_ connection: ControlConnection) {
        loop.unregister(fd: connection.fd.rawValue)
        connections[connection.fd.rawValue] = nil
        subscribers.removeAll { $0 === connection }
        if connection.ownsChanges, let peer = connection.peer { handler?.connectionClosed(peer) }
    }

    private func expireSlowRequests() {
        let now = loop.now()
        for connection in Array(connections.values) where !connection.closeAfterFlush {
            if let since = connection.partialSince, now - since >= ControlServer.requestTimeout {
                fatal(
                    connection,
                    ControlError(code: "timeout", message: "request not finished within \(ControlServer.requestTimeout / 1_000_000) s"))
            } else if connection.mayTimeOut && now - connection.lastActive >= idleTimeout {
                logger.debug("control: closing fd \(connection.fd.rawValue), idle for \(idleTimeout / 1_000_000) s")
                // One that does not read its replies would not read this one either.
                if connection.hasPendingOutput {
                    drop(connection)
                    continue
                }
                fatal(
                    connection, ControlError(code: "idle", message: "no request for \(idleTimeout / 1_000_000) s; closing"), quietly: true)
            }
        }
        armRequestTimer()
    }

    /// The next unfinished request's timeout or idle connection's expiry.
    private func armRequestTimer() {
        var earliest: Microseconds?
        for connection in connections.values where !connection.closeAfterFlush {
            let due: Microseconds? =
                if let since = connection.partialSince { since + ControlServer.requestTimeout } else if connection.mayTimeOut {
                    connection.lastActive + idleTimeout
                } else { nil }
            if let due, earliest.map({ due < $0 }) ?? true { earliest = due }
        }
        requestTimer.set(earliest)
    }

    private static func makeParentDirectory(of path: String) throws(SystemError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw SystemError("mkdir", directory) }
    }

    private static func removeStaleSocket(at path: String) throws(SystemError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemError(
                "bind", path, errno: EEXIST,
                hint: "the path is taken by something that is not a socket; remove it or choose another socket path")
        }
        let probe = try UnixSocket.make(datagram: false)
        let connected = try UnixSocket.withAddress(path) { connect(probe.rawValue, $0, $1) }
        if connected == 0 {
            throw SystemError("bind", path, errno: EADDRINUSE, hint: "another gestured is running on this socket; stop it or pass --socket")
        }
        guard errno == ECONNREFUSED else { throw SystemError("connect", path) }
        unlink(path)
    }

    private static func groupID(_ name: String, key: String) throws(SystemError) -> gid_t {
        guard let gid = try GroupDatabase.id(of: name) else {
            throw SystemError(
                "getgrnam_r", "group \(name)", errno: ENOENT,
                hint: "no such group for the control socket: set [daemon] \(key) to an existing group")
        }
        return gid
    }
}
