import ConfigModel

/// An error reply: `{"error": {"code": ..., "message": ...}}`.
public struct ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(code))" }

    /// `bad-request`: a request its command cannot read, and the members it knows.
    public static func badRequest(_ message: String, among names: [String] = []) -> ControlError {
        ControlError(code: "bad-request", message: message + (names.isEmpty ? "" : "; known: " + names.joined(separator: ", ")))
    }

    /// No such gesture, view or mode (`unknown-gesture`, `unknown-view`, `unknown-mode`),
    /// with the closest name and the names there are.
    public static func unknown(_ kind: String, _ name: String, among names: [String]) -> ControlError {
        let suggestion = DidYouMean.suggestion(for: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        let known = names.isEmpty ? "the config declares none" : "known: " + names.joined(separator: ", ")
        return ControlError(code: "unknown-\(kind)", message: "unknown \(kind) '\(name)'\(suggestion) (\(known))")
    }

    public var json: JSONValue { .object([("code", .string(code)), ("message", .string(message))]) }
}
