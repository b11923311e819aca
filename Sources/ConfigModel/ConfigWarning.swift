/// A config that loads but almost certainly does not mean what it says; `check` prints it
/// as `file:line:col: warning: key.path: message` and still succeeds.
public struct ConfigWarning: Equatable, Sendable, CustomStringConvertible {
    public var location: ConfigLocation
    public var keyPath: ConfigKeyPath
    public var message: String

    package init(location: ConfigLocation, keyPath: ConfigKeyPath, message: String) {
        self.location = location
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        "\(location): warning: \(keyPath): \(message)"
    }
}
