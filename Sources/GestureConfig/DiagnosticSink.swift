/// Collects every semantic problem of one file, each placed by the key locator.
final class DiagnosticSink {
    let file: String
    let locator: KeyLocator
    private(set) var diagnostics: [Diagnostic] = []
    /// What is worth saying but does not refuse the file.
    private(set) var warnings: [ConfigWarning] = []
    /// Every key a `TableReader` asked for: the schema as the code reads it (the man-page
    /// test checks that each one is documented).
    private(set) var keysRead: Set<String> = []

    init(file: String, locator: KeyLocator) {
        self.file = file
        self.locator = locator
    }

    func report(
        _ path: ConfigKeyPath, _ message: String, expected: String? = nil,
        found: String? = nil, didYouMean: String? = nil
    ) {
        diagnostics.append(
            Diagnostic(
                file: file, position: locator.position(of: path), keyPath: path,
                message: message, expected: expected, found: found,
                didYouMean: didYouMean))
    }

    func warn(_ path: ConfigKeyPath, _ message: String, expected: String? = nil, found: String? = nil) {
        let position = locator.position(of: path)
        let text = Diagnostic(
            file: file, position: position, keyPath: path, message: message,
            expected: expected, found: found
        ).fullMessage
        warnings.append(ConfigWarning(file: file, position: position, keyPath: path, message: text))
    }

    func noteRead(_ key: String) { keysRead.insert(key) }

    /// In file order; problems at one position keep the order they were found in.
    var sorted: [Diagnostic] { diagnostics.inFileOrder(by: \.position) }
}
