/// Collects every semantic problem of one file, each placed by the key locator.
final class DiagnosticSink {
    let file: String
    let locator: KeyLocator
    private(set) var diagnostics: [Diagnostic] = []
    /// What is worth saying but does not refuse the file, in file order.
    private(set) var warnings: [Diagnostic] = []

    init(file: String, locator: KeyLocator) {
        self.file = file
        self.locator = locator
    }

    func report(_ path: ConfigKeyPath, _ message: String, expected: String? = nil,
                found: String? = nil, didYouMean: String? = nil) {
        diagnostics.append(Diagnostic(file: file, position: locator.position(of: path), keyPath: path,
                                      message: message, expected: expected, found: found,
                                      didYouMean: didYouMean))
    }

    func warn(_ path: ConfigKeyPath, _ message: String, expected: String? = nil, found: String? = nil) {
        warnings.append(Diagnostic(file: file, position: locator.position(of: path), keyPath: path,
                                   message: message, expected: expected, found: found, severity: .warning))
    }

    /// In file order; problems at one position keep the order they were found in.
    var sorted: [Diagnostic] { Self.inFileOrder(diagnostics) }

    static func inFileOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            a.element.position == b.element.position ? a.offset < b.offset : a.element.position < b.element.position
        }.map(\.element)
    }
}
