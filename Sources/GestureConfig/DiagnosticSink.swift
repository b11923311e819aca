/// Collects every semantic problem of a config's files, each placed by the merged sources.
final class DiagnosticSink {
    let sources: MergedSources
    private(set) var diagnostics: [Diagnostic] = []
    /// What is worth saying but does not refuse the config.
    private(set) var warnings: [ConfigWarning] = []
    /// Every key a `TableReader` asked for: the schema as the code reads it (the man-page
    /// test checks that each one is documented).
    private(set) var keysRead: Set<String> = []

    init(sources: MergedSources) {
        self.sources = sources
    }

    /// Where `path` is written, in which file.
    func location(of path: ConfigKeyPath) -> ConfigLocation { sources.location(of: path) }

    func report(
        _ path: ConfigKeyPath, _ message: String, expected: String? = nil,
        found: String? = nil, didYouMean: String? = nil
    ) {
        diagnostics.append(
            Diagnostic(
                location: location(of: path), keyPath: path,
                message: message, expected: expected, found: found,
                didYouMean: didYouMean))
    }

    func warn(_ path: ConfigKeyPath, _ message: String, expected: String? = nil, found: String? = nil) {
        let location = location(of: path)
        let text = Diagnostic(
            location: location, keyPath: path, message: message,
            expected: expected, found: found
        ).fullMessage
        warnings.append(ConfigWarning(location: location, keyPath: path, message: text))
    }

    func noteRead(_ key: String) { keysRead.insert(key) }

    /// In file order (the files' order, then line and column); problems at one location
    /// keep the order they were found in.
    var sorted: [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            a.element.location == b.element.location ? a.offset < b.offset : a.element.location < b.element.location
        }.map(\.element)
    }
}
