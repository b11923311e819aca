import JSONOutput
import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// Why gesturectl could not talk to the daemon, worded for the person at the terminal.
public enum ControlClientError: Error, CustomStringConvertible {
    case notRunning(tried: [String])
    case refused(path: String)
    /// Not allowed to connect: the socket's group (nil when unknown) is the one to join.
    case permissionDenied(path: String, group: String?)
    case io(SystemError)
    case protocolViolation(String)
    /// The daemon closed an event stream.
    case streamEnded
    case daemon(ControlError)

    public var description: String {
        switch self {
        case .notRunning(let tried):
            "gestured is not running: no socket at \(tried.joined(separator: " or ")) (start it, or pass --socket)"
        case .refused(let path):
            "gestured is not running: nothing listens at \(path) (a stale socket?)"
        // Group root: a daemon started by root with no socket_group. Joining root would
        // give the user far more than gesturectl; the group to make is the config's.
        case .permissionDenied(let path, "root"?):
            "permission denied on \(path): it is root's (the daemon runs as root with no [daemon] socket_group); "
                + "run gesturectl as root, or set [daemon] socket_group to a group of its users and restart gestured"
        case .permissionDenied(let path, let group?):
            "permission denied on \(path): it is for root and the members of group '\(group)'; "
                + "join it (sudo usermod -aG \(group) $USER, then log in again) or run gesturectl as root"
        case .permissionDenied(let path, nil):
            "permission denied on \(path): join the socket's group ([daemon] socket_group) or run gesturectl as root"
        case .io(let error): "control socket: \(error)"
        case .protocolViolation(let what): "unexpected reply from gestured: \(what)"
        // "gestured is busy (64 connections)" says it all.
        case .daemon(let error): error.code == "busy" ? error.message : "gestured: \(error.message)"
        case .streamEnded: "gestured closed the stream (it stopped, or this monitor fell too far behind and was dropped)"
        }
    }
}

/// A blocking client of the control socket (gesturectl and tests): one request, one reply
/// line; after `subscribe`, a stream of lines.
public final class ControlClient {
    public let path: String
    private let fd: FileDescriptor
    private var buffer: [UInt8] = []

    /// Connects to the first existing path of `candidates`; `timeout` bounds every read.
    /// `blocking: false` keeps the socket non-blocking for a caller's event loop (the web
    /// bridge): the connect does not wait either (a full backlog is `EAGAIN`).
    public init(candidates: [String], timeout: Double? = 10, blocking: Bool = true) throws(ControlClientError) {
        guard let path = candidates.first(where: { access($0, F_OK) == 0 }) else {
            throw .notRunning(tried: candidates)
        }
        self.path = path
        do {
            let socket = try UnixSocket.make(datagram: false)
            // The descriptor was made non-blocking for the loop; the CLI wants to wait.
            if blocking { _ = fcntl(socket.rawValue, F_SETFL, fcntl(socket.rawValue, F_GETFL) & ~O_NONBLOCK) }
            try UnixSocket.connect(socket, to: path)
            fd = socket
        } catch {
            if error.code == ECONNREFUSED { throw .refused(path: path) }
            if error.code == ENOENT { throw .notRunning(tried: [path]) }
            if error.code == EACCES { throw .permissionDenied(path: path, group: Self.groupName(of: path)) }
            throw .io(error)
        }
        if let timeout {
            var value = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
            setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// The socket, for a caller that goes on reading a stream in its own event loop (the
    /// web bridge after `subscribe`), with `takeBuffered()`.
    public var descriptor: Int32 { fd.rawValue }

    /// The bytes read past the last line returned (stream lines that came with the reply).
    public func takeBuffered() -> [UInt8] {
        defer { buffer = [] }
        return buffer
    }

    /// The name of the group owning `path`, or nil.
    private static func groupName(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrgid_r(info.st_gid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return String(cString: entry.gr_name)
    }

    /// Sends `{"cmd": command, ...extra}` and returns the value of `ok`; throws the
    /// daemon's error reply as `.daemon`.
    public func request(_ command: ControlCommand, _ extra: [(String, JSONValue)] = []) throws(ControlClientError) -> JSONValue {
        try request(named: command.rawValue, extra)
    }

    /// A runtime command (`set`, `mode`, `reset`), its members written from the typed request.
    public func request(_ command: RuntimeCommand) throws(ControlClientError) -> JSONValue {
        try request(command.controlCommand, command.members)
    }

    /// `request(_:_:)` with any `cmd`, in the table or not (tests send unknown ones).
    public func request(named command: String, _ extra: [(String, JSONValue)] = []) throws(ControlClientError) -> JSONValue {
        do {
            try send(.object([("cmd", .string(command))] + extra))
        } catch {
            // A daemon that turned the connection away (busy) answered before the request
            // was sent and closed: its reply says why better than EPIPE does.
            if case .io = error, let line = try? readLine(), let reply = try? JSONParser.parse(line),
                let refusal = reply["error"]
            {
                throw .daemon(ControlError(code: refusal["code"]?.stringValue ?? "?", message: refusal["message"]?.stringValue ?? "?"))
            }
            throw error
        }
        guard let line = try readLine() else { throw .protocolViolation("connection closed before the reply") }
        let reply: JSONValue
        do { reply = try JSONParser.parse(line) } catch { throw .protocolViolation("\(error)") }
        if let ok = reply["ok"] { return ok }
        if let error = reply["error"] {
            throw .daemon(ControlError(code: error["code"]?.stringValue ?? "?", message: error["message"]?.stringValue ?? "?"))
        }
        throw .protocolViolation("neither ok nor error")
    }

    /// Writes one request line.
    public func send(_ request: JSONValue) throws(ControlClientError) {
        var writer = JSONWriter()
        writer.value(request)
        writer.newline()
        try sendRaw(writer.bytes)
    }

    /// Writes bytes as they are (tests send garbage with it).
    public func sendRaw(_ bytes: [UInt8]) throws(ControlClientError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw .io(SystemError("send", path)) }
            offset += n
        }
    }

    /// The next line without its newline; nil at end of stream.
    public func readLine() throws(ControlClientError) -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = retryingInterrupted { recv(fd.rawValue, &chunk, chunk.count, 0) }
            if n == 0 { return nil }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { throw .protocolViolation("no reply in time") }
                throw .io(SystemError("recv", path))
            }
            buffer += chunk[0..<n]
        }
    }
}
