import ActionDispatch
// Arbitrary bytes from a real client to the real control server on a Unix socket: every
// line it answers must be one JSON object, and the server must keep serving (the next
// input gets a fresh connection to the same server).
import FuzzSupport
import GestureControl
import GestureDaemon
import Logging

#if canImport(Glibc)
import Glibc
import SystemLoop
#endif

/// Answers as the daemon's commands do, with fixed content.
final class FixedHandler: ControlHandler {
    func handle(_ request: DaemonRequest, from peer: ControlPeer) -> ControlReply {
        switch request {
        case .status: .success(.object([("version", .string("fuzz")), ("devices", .array([]))]))
        case .reload: .failure(ControlError(code: "config-invalid", message: "fuzz.toml:1:1: error"))
        default: .success(.array([]))
        }
    }
}

signal(SIGPIPE, SIG_IGN)
let directory = String(cString: mkdtemp(strdup("/tmp/gestured-fuzz-XXXXXX")))
let path = directory + "/control.sock"
let loop = try! EventLoop()
let handler = FixedHandler()
var logger = Logger(label: "fuzz")
logger.logLevel = .critical
let server = try! ControlServer(loop: loop, path: path, handler: handler, logger: logger)

func connectClient() -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        _ = path.utf8CString.withUnsafeBytes { raw.copyMemory(from: $0) }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    FuzzCheck.require(connected == 0, "the server no longer accepts connections: errno \(errno)")
    return fd
}

runFuzzer { input in
    let fd = connectClient()
    defer { close(fd) }
    var sent = 0
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var serverClosed = false
    // A bounded number of turns: requests are answered within a few, a subscription never
    // ends; once everything is sent, three quiet turns in a row end the input.
    var quietTurns = 0
    for _ in 0..<64 where !serverClosed && quietTurns < 3 {
        if sent < input.count {
            let n = send(fd, input.baseAddress! + sent, input.count - sent, Int32(MSG_NOSIGNAL))
            if n > 0 { sent += n } else if errno != EAGAIN { sent = input.count }
            if sent == input.count { shutdown(fd, Int32(SHUT_WR)) }
        }
        _ = try? loop.runOnce(timeoutMilliseconds: 0)
        let before = received.count
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 {
                received += buffer[0..<n]
            } else {
                serverClosed = n == 0
                break
            }
        }
        quietTurns = sent == input.count && received.count == before ? quietTurns + 1 : 0
    }
    // Every complete line is a JSON value (a reply, an event or a final error).
    for line in received.split(separator: UInt8(ascii: "\n")) {
        FuzzCheck.require(
            (try? JSONParser.parse(line)) != nil,
            "the server sent a line that is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))")
    }
}
