#if canImport(Glibc)
import Glibc
#endif

/// An owned file descriptor, closed when the last reference goes away.
public final class FileDescriptor {
    public let rawValue: Int32

    /// Takes ownership of `rawValue` (must be a valid, open descriptor).
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    deinit { close(rawValue) }

    /// Sets O_NONBLOCK (descriptors from pipe2/accept4 usually have it already).
    public func setNonBlocking() throws(SystemError) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0, fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemError("fcntl(O_NONBLOCK)", "fd \(rawValue)")
        }
    }

    /// Reads what is available into `buffer` (appending). Returns bytes read, 0 at end of
    /// file, nil when it would block.
    public func readAvailable(into buffer: inout [UInt8], max: Int = 4096) throws(SystemError) -> Int? {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: max))
        let n = buffer.withUnsafeMutableBytes { read(rawValue, $0.baseAddress! + start, max) }
        let err = errno
        buffer.removeLast(max - Swift.max(n, 0))
        if n >= 0 { return n }
        if err == EAGAIN || err == EWOULDBLOCK || err == EINTR { return nil }
        throw SystemError("read", "fd \(rawValue)", errno: err)
    }
}
