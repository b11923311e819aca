import GestureCore

/// Reads and validates a gestured config, one file or a list of them (the main file and
/// its drop-ins, `ConfigTree`), into a `Configuration`.
public enum ConfigLoader {
    /// Where the daemon looks when no `--config` is given.
    public static let defaultPath = "/etc/gestured/gestures.toml"

    /// The main file and the drop-ins of `tree`, read in order (`load(files:)`).
    public static func load(tree: ConfigTree, enforcingSafety: Bool = false) throws(ConfigError) -> Configuration {
        try load(files: tree.list().files, enforcingSafety: enforcingSafety)
    }

    /// Reads `path` alone (no drop-ins), naming the file by `path` in errors.
    public static func load(path: String, enforcingSafety: Bool = false) throws(ConfigError) -> Configuration {
        try load(files: [path], enforcingSafety: enforcingSafety)
    }

    /// Reads `files` (the first is the main file) and parses them (`parse(_:)`). With
    /// `enforcingSafety` (the daemon passes `ConfigFileSafety.isRoot`), a file that is not
    /// root's or that others may write is refused with `ConfigError.unsafe`. The files
    /// together may hold `FileText.maximumSize` bytes, as one file may.
    public static func load(files: [String], enforcingSafety: Bool = false) throws(ConfigError) -> Configuration {
        try parse(read(files: files, enforcingSafety: enforcingSafety))
    }

    /// Parses a config of one file (see `parse(_:)`).
    public static func parse(text: String, file: String) throws(ConfigError) -> Configuration {
        try parse([ConfigSource(file: file, text: text)])
    }

    /// Parses a config's files, later files setting keys of earlier ones (`MergedSources`).
    /// Throws the first syntax error in file order (toml++'s line and column), or, for files
    /// that parse, every semantic problem found in one pass, in file order.
    public static func parse(_ sources: [ConfigSource]) throws(ConfigError) -> Configuration {
        try build(sources).configuration
    }

    static func read(files: [String], enforcingSafety: Bool) throws(ConfigError) -> [ConfigSource] {
        var sources: [ConfigSource] = []
        var total = 0
        for file in files {
            let text = try FileText.read(path: file, enforcingSafety: enforcingSafety)
            total += text.utf8.count
            if total > FileText.maximumSize {
                throw .unreadable(
                    path: file,
                    reason:
                        "with the files before it, larger than \(FileText.maximumSize >> 20) MiB, the limit for a config's files together")
            }
            sources.append(ConfigSource(file: file, text: text))
        }
        return sources
    }

    /// The configuration and the merged sources it was built from (`check --explain` asks them).
    static func build(_ sources: [ConfigSource]) throws(ConfigError) -> (configuration: Configuration, sources: MergedSources) {
        var parsed: [ParsedSource] = []
        for source in sources { parsed.append(try ParsedSource(source)) }
        let merged = MergedSources(parsed)
        let sink = DiagnosticSink(sources: merged)
        let configuration = ConfigBuilder(root: merged.root, sink: sink).build()
        guard sink.diagnostics.isEmpty, var configuration else {
            throw .invalid(DropInCause.attributed(sink.sorted, files: parsed, sources: merged).inFileOrder(by: \.shownLocation))
        }
        configuration.files = sources.map(\.file)
        // What the readers found, then what the whole model says (tap pairs, gestures that never
        // fire), placed by the same sources; in file order, as the errors are (one location
        // keeps the order found).
        let warnings = sink.warnings + ConfigWarning.warnings(in: configuration.model, locate: merged.location(of:))
        configuration.warnings = warnings.inFileOrder(by: \.location)
        return (configuration, merged)
    }
}

/// One file of a config: its name (as diagnostics show it) and its text.
public struct ConfigSource: Sendable {
    public var file: String
    public var text: String

    public init(file: String, text: String) {
        self.file = file
        self.text = text
    }
}

/// One config file parsed: its table and where its keys are written.
struct ParsedSource {
    let file: String
    let locator: KeyLocator
    let table: TOMLTable

    init(file: String, locator: KeyLocator, table: TOMLTable) {
        self.file = file
        self.locator = locator
        self.table = table
    }

    /// Throws the file's syntax error: a NUL, what the locator refuses, or toml++'s first.
    init(_ source: ConfigSource) throws(ConfigError) {
        let text = source.text
        func syntax(_ position: SourcePosition, _ message: String) -> ConfigError {
            .syntax(Diagnostic(location: ConfigLocation(file: source.file, position: position), keyPath: ConfigKeyPath(), message: message))
        }
        if let nul = text.unicodeScalars.firstIndex(of: "\0") {
            // The C parser would stop at the NUL and silently drop the rest of the file.
            throw syntax(SourcePosition.of(nul, in: text), "NUL character in the file")
        }
        let locator = KeyLocator(text: text)
        if let refusal = locator.refusal { throw syntax(refusal.position, refusal.message) }
        do {
            table = try TOMLTable.parse(text)
        } catch {
            let hint = UnquotedUnit.hint(in: text, at: error.position).map { " " + $0 } ?? ""
            throw syntax(error.position, error.message + hint)
        }
        file = source.file
        self.locator = locator
    }
}
