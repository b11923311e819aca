#if canImport(Glibc)
import Glibc
#endif

/// Where the control socket lives: `--socket`, else `$GESTURED_SOCKET`, else
/// `/run/gestured/gestured.sock`, else `$XDG_RUNTIME_DIR/gestured/gestured.sock`.
/// The daemon and gesturectl use the same order.
public enum ControlSocketPath {
    /// The system service's socket (systemd's `RuntimeDirectory=gestured`).
    public static let system = "/run/gestured/gestured.sock"

    /// `$XDG_RUNTIME_DIR/gestured/gestured.sock`, when that variable is set.
    public static func user(_ environment: [String: String]) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return runtime + "/gestured/gestured.sock"
    }

    /// Where the daemon listens. `configured` is `[daemon] socket`, which comes after the
    /// option and the environment. `/run/gestured` is used when its directory is writable
    /// (systemd's `RuntimeDirectory=` makes it), else the user's runtime directory.
    public static func forDaemon(option: String?, configured: String?, environment: [String: String]) -> String {
        if let explicit = option ?? environment["GESTURED_SOCKET"].flatMap({ $0.isEmpty ? nil : $0 }) ?? configured {
            return explicit
        }
        if access("/run/gestured", W_OK) == 0 { return system }
        return user(environment) ?? system
    }

    /// The paths gesturectl tries, in order: only the explicit one when given.
    public static func candidates(option: String?, environment: [String: String]) -> [String] {
        if let explicit = option ?? environment["GESTURED_SOCKET"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return [explicit]
        }
        return [system] + (user(environment).map { [$0] } ?? [])
    }
}

/// The process environment as a dictionary.
public enum ProcessEnvironment {
    /// `environ` now (later duplicates of a name win).
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let cString = entry.pointee {
            let text = String(cString: cString)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
