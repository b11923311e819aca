/// An error reply: `{"error": {"code": ..., "message": ...}}`.
public struct ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(code))" }

    public var json: JSONValue { .object([("code", .string(code)), ("message", .string(message))]) }
}
