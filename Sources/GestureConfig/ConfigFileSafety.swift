#if canImport(Glibc)
import Glibc
#endif

/// The config's actions run commands, as root when the daemon runs as root: such a file
/// must be as protected as a root-owned script. Refused when it is not owned by root, or
/// when its group or others may write it. `ConfigLoader.load(path:enforcingSafety:)` applies
/// the rule to the file it opens.
public enum ConfigFileSafety {
    /// Nil when `path` is safe to load as root, else why not. `stat` follows symlinks, as
    /// loading does: it is the target that is read.
    public static func problem(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot stat it: \(String(cString: strerror(errno)))" }
        return problem(owner: info.st_uid, mode: info.st_mode, path: path)
    }

    /// The rule itself, on a file's owner and mode.
    public static func problem(owner: uid_t, mode: mode_t, path: String) -> String? {
        let mode = mode & 0o7777
        if owner != 0 {
            return "it is owned by uid \(owner), not root, and its actions run as root "
                + "(chown root \(path))"
        }
        if mode & 0o022 != 0 {
            let who = mode & 0o020 != 0 && mode & 0o002 != 0 ? "group and others" : mode & 0o020 != 0 ? "group" : "others"
            return "it is writable by \(who) (mode \(octal(mode))), and its actions run as root (chmod go-w \(path))"
        }
        return nil
    }

    /// True when this process runs as root, the case in which the checks apply.
    public static var isRoot: Bool { geteuid() == 0 }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
