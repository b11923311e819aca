import ConfigModel

/// Why a runtime command was refused: the control socket's error `code` and a message.
public struct RuntimeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func badRequest(_ message: String) -> RuntimeError { RuntimeError(code: "bad-request", message: message) }

    /// No such gesture, view or mode: `unknown-gesture`, `unknown-view`, `unknown-mode`.
    static func unknown(_ kind: String, _ name: String, among names: [String]) -> RuntimeError {
        let suggestion = DidYouMean.suggestion(for: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        let known = names.isEmpty ? "the config declares none" : "known: " + names.joined(separator: ", ")
        return RuntimeError(code: "unknown-\(kind)", message: "unknown \(kind) '\(name)'\(suggestion) (\(known))")
    }
}
