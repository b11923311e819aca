#if canImport(Glibc)
import Glibc
#endif

/// A failed system or C-library call on a path, with the errno text and, where there is
/// one, what the user can do about it. Every part of gestured words failed calls with it.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// What was attempted: "open", "read", "libevdev_new_from_fd", ...
    public var operation: String
    /// The path, or what the descriptor is for ("event loop", "group input").
    public var path: String
    /// The errno value.
    public var code: Int32
    /// Why, when it is not an errno's text (a file refused for what it is).
    public var detail: String?
    /// How to fix it, when known (e.g. permissions).
    public var hint: String?

    public init(_ operation: String, path: String, code: Int32, detail: String? = nil, hint: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.detail = detail
        self.hint = hint
    }

    /// `operation` failed on `subject` (a path, or what the descriptor is for) with `errno`.
    public init(_ operation: String, _ subject: String, errno code: Int32 = Glibc.errno, hint: String? = nil) {
        self.init(operation, path: subject, code: code, hint: hint)
    }

    /// What went wrong, without the path: the detail, else the errno text.
    public var reason: String { detail ?? String(cString: strerror(code)) }

    public var description: String {
        let text = "\(path): \(operation) failed: \(reason)"
        guard let hint else { return text }
        return text + "\n  " + hint
    }

    /// The hint for devices the user may not read.
    static let permissionHint =
        "add the user to the 'input' group (sudo usermod -aG input $USER, then log in again), "
        + "or install a udev rule granting access, e.g. "
        + "SUBSYSTEM==\"input\", ENV{ID_INPUT_TOUCHSCREEN}==\"1\", GROUP=\"input\", MODE=\"0660\""

    /// An error for `errno` after `operation` on `path`, with the permission hint for
    /// EACCES/EPERM on device nodes.
    public static func current(_ operation: String, path: String) -> SystemError {
        let code = errno
        let hint = (code == EACCES || code == EPERM) && path.hasPrefix("/dev/") ? permissionHint : nil
        return SystemError(operation, path: path, code: code, hint: hint)
    }
}
