#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl check FILE` and `gestured --check FILE`: validate a file as the daemon
/// would load it and print the resolved gestures and any warnings (`ConfigWarning`), or
/// every error.
public enum ConfigCheck {
    /// Prints the report to standard output, or the errors to standard error (warnings too,
    /// with status 0); returns the exit status (0 valid, 1 invalid or unreadable). As root, also applies `ConfigFileSafety`.
    public static func run(path: String) -> Int32 {
        run(
            path: path, enforceSafety: ConfigFileSafety.isRoot,
            output: { print($0) },
            errors: { line in
                let text = line + "\n"
                _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            })
    }

    /// The same with the outputs and the safety rule given (tests, other front ends).
    public static func run(
        path: String, enforceSafety: Bool, output: (String) -> Void,
        errors: (String) -> Void
    ) -> Int32 {
        do {
            let configuration = try ConfigLoader.load(path: path, enforcingSafety: enforceSafety)
            output(ConfigReport.text(of: configuration))
            for warning in configuration.warnings { errors(warning.description) }
            let count = configuration.model.gestures.count
            output("\(path): OK, \(count) \(count == 1 ? "gesture" : "gestures")")
            return 0
        } catch {
            errors(error.description)
            let count = error.diagnostics.count
            if count > 1 { errors("\(path): \(count) errors") }
            return 1
        }
    }
}
