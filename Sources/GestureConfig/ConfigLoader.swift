import GestureCore

/// Reads and validates a gestured config file into a `Configuration`.
public enum ConfigLoader {
    /// Where the daemon looks when no `--config` is given.
    public static let defaultPath = "/etc/gestured/gestures.toml"

    /// Reads `path` and parses it (`parse(text:file:)`), naming the file by `path` in errors.
    /// With `enforcingSafety` (the daemon passes `ConfigFileSafety.isRoot`), a file that is
    /// not root's or that others may write is refused with `ConfigError.unsafe`.
    public static func load(path: String, enforcingSafety: Bool = false) throws(ConfigError) -> Configuration {
        try parse(text: FileText.read(path: path, enforcingSafety: enforcingSafety), file: path)
    }

    /// Parses a config. Throws the first syntax error (toml++'s line and column), or, for a
    /// file that parses, every semantic problem found in one pass, in file order.
    public static func parse(text: String, file: String) throws(ConfigError) -> Configuration {
        if let nul = text.unicodeScalars.firstIndex(of: "\0") {
            // The C parser would stop at the NUL and silently drop the rest of the file.
            throw .syntax(
                Diagnostic(
                    file: file, position: SourcePosition.of(nul, in: text),
                    keyPath: ConfigKeyPath(), message: "NUL character in the file"))
        }
        let locator = KeyLocator(text: text)
        if let refusal = locator.refusal {
            throw .syntax(
                Diagnostic(
                    file: file, position: refusal.position, keyPath: ConfigKeyPath(),
                    message: refusal.message))
        }
        let root: TOMLTable
        do {
            root = try TOMLTable.parse(text)
        } catch {
            let hint = UnquotedUnit.hint(in: text, at: error.position).map { " " + $0 } ?? ""
            throw .syntax(Diagnostic(file: file, position: error.position, keyPath: ConfigKeyPath(), message: error.message + hint))
        }
        let sink = DiagnosticSink(file: file, locator: locator)
        let configuration = ConfigBuilder(root: root, sink: sink).build()
        guard sink.diagnostics.isEmpty, var configuration else { throw .invalid(sink.sorted) }
        // What the readers found, then what the whole model says (tap pairs), placed by the same locator.
        // In file order, as the errors are (one position keeps the order found).
        let warnings =
            sink.warnings
            + ConfigWarning.warnings(in: configuration.model, file: file, locate: locator.position(of:))
        configuration.warnings = warnings.inFileOrder(by: \.position)
        return configuration
    }
}
