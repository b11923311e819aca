/// A failure of a command that ran (not a usage error): printed as `Error: message`
/// without the usage text that `ValidationError` adds.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
