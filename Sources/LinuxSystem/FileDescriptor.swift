#if canImport(Glibc)
import Glibc
#endif

/// An owned file descriptor, closed when the last reference goes away.
public final class FileDescriptor {
    public let rawValue: Int32

    /// Takes ownership of `rawValue` (must be a valid, open descriptor).
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    deinit { close(rawValue) }

    /// open(2) with O_CLOEXEC added; the error names `path`.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> FileDescriptor {
        let raw = Glibc.open(path, flags | O_CLOEXEC, mode)
        guard raw >= 0 else { throw SystemError.current("open", path: path) }
        return FileDescriptor(raw)
    }

    /// Sets O_NONBLOCK (descriptors from pipe2/accept4 usually have it already).
    public func setNonBlocking() throws(SystemError) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0, fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemError("fcntl(O_NONBLOCK)", "fd \(rawValue)")
        }
    }

    /// read(2) into `buffer`, retried when interrupted: bytes read, 0 at end of file, nil
    /// when it would block. `subject` names the descriptor in the error.
    public func read(into buffer: UnsafeMutableRawBufferPointer, subject: @autoclosure () -> String) throws(SystemError) -> Int? {
        let n = retryingInterrupted { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
        return try Self.readResult(n, errno: errno, subject: subject())
    }

    /// Reads what is available into `buffer` (appending). Returns bytes read, 0 at end of
    /// file, nil when it would block.
    public func readAvailable(into buffer: inout [UInt8], max: Int = 4096) throws(SystemError) -> Int? {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: max))
        let n = buffer.withUnsafeMutableBytes { bytes in
            retryingInterrupted { Glibc.read(rawValue, bytes.baseAddress! + start, max) }
        }
        let code = errno
        buffer.removeLast(max - Swift.max(n, 0))
        return try Self.readResult(n, errno: code, subject: "fd \(rawValue)")
    }

    /// Writes all of `bytes`, retrying interrupted and short writes (a blocking descriptor).
    public func write(all bytes: UnsafeRawBufferPointer, subject: @autoclosure () -> String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = retryingInterrupted { Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset) }
            guard n >= 0 else { throw SystemError("write", subject()) }
            offset += n
        }
    }

    /// A read(2) result as `read(into:subject:)` returns it.
    private static func readResult(_ n: Int, errno code: Int32, subject: @autoclosure () -> String) throws(SystemError) -> Int? {
        if n >= 0 { return n }
        if code == EAGAIN || code == EWOULDBLOCK { return nil }
        throw SystemError("read", subject(), errno: code)
    }
}
