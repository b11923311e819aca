#if canImport(Glibc)
import Glibc
#endif

/// Unix socket addresses and the calls that take them. A leading `@` names an abstract
/// socket (Linux), as systemd writes `$NOTIFY_SOCKET`.
public enum UnixSocket {
    /// The longest path `sockaddr_un` holds (107 bytes plus the terminator).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with the address of `path`; throws ENAMETOOLONG for a path that does not fit.
    public static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws(SystemError) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard bytes.count <= maximumPathLength else {
            throw SystemError(
                "socket address", path, errno: ENAMETOOLONG, hint: "Unix socket paths hold at most \(maximumPathLength) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        // Abstract names are exactly as long as given; paths carry their terminator.
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }

    /// A new non-blocking, close-on-exec socket.
    public static func make(datagram: Bool) throws(SystemError) -> FileDescriptor {
        let type =
            (datagram ? Int32(SOCK_DGRAM.rawValue) : Int32(SOCK_STREAM.rawValue)) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        let raw = socket(AF_UNIX, type, 0)
        guard raw >= 0 else { throw SystemError("socket(AF_UNIX)", "Unix socket") }
        return FileDescriptor(raw)
    }

    /// connect(2) to `path`; the errno on failure.
    public static func connect(_ fd: FileDescriptor, to path: String) throws(SystemError) {
        let rc = try withAddress(path) { Glibc.connect(fd.rawValue, $0, $1) }
        guard rc == 0 else { throw SystemError("connect", path) }
    }

    /// bind(2) to `path`.
    public static func bind(_ fd: FileDescriptor, to path: String) throws(SystemError) {
        let rc = try withAddress(path) { Glibc.bind(fd.rawValue, $0, $1) }
        guard rc == 0 else { throw SystemError("bind", path) }
    }

    /// send(2) with MSG_NOSIGNAL | MSG_DONTWAIT: bytes sent, or -1 with errno.
    public static func send(_ fd: FileDescriptor, _ bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBytes { Glibc.send(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Sets SO_SNDBUF (the kernel doubles it and applies its own floor).
    public static func setSendBuffer(_ fd: FileDescriptor, _ bytes: Int) {
        var value = Int32(clamping: bytes)
        setsockopt(fd.rawValue, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Ignores SIGPIPE process-wide: a peer that went away must be an error, not a death.
    public static func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
}
