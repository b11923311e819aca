import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// The bridge's listening socket: the one systemd passes (socket activation, fd 3 with
/// `LISTEN_FDS=1` for this pid) or one bound to `HOST:PORT`.
public enum TCPListener {
    /// The first socket systemd passed, or nil when not socket-activated. Unsets the
    /// variables so that nothing the bridge starts takes them for its own.
    public static func inherited(_ environment: [String: String]) -> FileDescriptor? {
        guard environment["LISTEN_PID"].flatMap({ Int32($0) }) == getpid(),
            let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd = FileDescriptor(3)
        _ = fcntl(3, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// A non-blocking socket listening on `address` (`127.0.0.1:8470`, `[::1]:8470`, port 0
    /// for any free port).
    public static func bind(_ address: String) throws(SystemError) -> FileDescriptor {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            throw SystemError("listen address", address, errno: EINVAL, hint: "give HOST:PORT, e.g. 127.0.0.1:8470 or [::1]:8470")
        }
        var host = String(address[..<colon])
        let v6 = host.hasPrefix("[") && host.hasSuffix("]")
        if v6 { host = String(host.dropFirst().dropLast()) }
        let raw = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw SystemError("socket", address) }
        let fd = FileDescriptor(raw)
        var one: Int32 = 1
        setsockopt(raw, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc: Int32
        if v6 {
            var sa = sockaddr_in6()
            sa.sin6_family = sa_family_t(AF_INET6)
            sa.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &sa.sin6_addr) == 1 else {
                throw SystemError("listen address", address, errno: EINVAL, hint: "not an IPv6 address")
            }
            rc = withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(raw, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &sa.sin_addr) == 1 else {
                throw SystemError("listen address", address, errno: EINVAL, hint: "not an IPv4 address (an IPv6 one goes in brackets)")
            }
            rc = withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(raw, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard rc == 0 else { throw SystemError("bind", address) }
        guard listen(raw, 64) == 0 else { throw SystemError("listen", address) }
        return fd
    }

    /// The port `fd` listens on, and whether its address is a loopback one.
    public static func localPort(_ fd: FileDescriptor) -> (port: Int, loopback: Bool)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) }
        }
        guard rc == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    (Int(UInt16(bigEndian: $0.pointee.sin_port)), UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127)
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                    let bytes = withUnsafeBytes(of: a.pointee.sin6_addr) { Array($0) }
                    return (Int(UInt16(bigEndian: a.pointee.sin6_port)), bytes == Array(repeating: 0, count: 15) + [1])
                }
            }
        default: return nil
        }
    }
}
