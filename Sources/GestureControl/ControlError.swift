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

    public var json: JSONValue { .object([("code", .string(code)), ("message", .string(message))]) }
}
