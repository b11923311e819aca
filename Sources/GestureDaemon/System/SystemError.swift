#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: what was tried, on what, and the errno text.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    /// The path or object the call was about (may be empty).
    public var subject: String
    public var errno: Int32

    public init(_ operation: String, _ subject: String = "", errno: Int32 = Glibc.errno) {
        self.operation = operation
        self.subject = subject
        self.errno = errno
    }

    public var description: String {
        let text = String(cString: strerror(errno))
        return subject.isEmpty ? "\(operation): \(text)" : "\(operation) \(subject): \(text)"
    }
}
