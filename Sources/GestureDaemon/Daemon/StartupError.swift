/// What stops the daemon from starting, worded for the log: the input that could not be
/// opened (`replay`, `stream`) and why. Not a control reply: nobody is connected yet.
public struct StartupError: Error, Equatable, CustomStringConvertible {
    /// The input that failed: "replay", "stream".
    public var source: String
    public var message: String

    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }

    public var description: String { "\(message) (\(source))" }
}
