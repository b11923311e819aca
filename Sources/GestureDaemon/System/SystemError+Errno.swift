#if canImport(Glibc)
import Glibc
#endif
import TouchInput

// The daemon reports failed calls with TouchInput's `SystemError` (path, operation, errno
// text, hint), so every part of gestured words them alike.
extension SystemError {
    /// `operation` failed on `subject` (a path, or what the descriptor is for) with `errno`.
    init(_ operation: String, _ subject: String, errno code: Int32 = Glibc.errno, hint: String? = nil) {
        self.init(operation, path: subject, code: code, hint: hint)
    }
}
