import GestureCore
import LinuxSystem

/// A control connection as the owner of the changes it makes: numbered from 1 in the order
/// connections were accepted (never reused while the daemon runs), with the kernel's
/// credentials of the process that connected and when it did (the loop's clock).
public struct ControlPeer: Equatable, Sendable, CustomStringConvertible {
    public var id: Int
    public var credentials: PeerCredentials
    public var connected: Microseconds

    public init(id: Int, credentials: PeerCredentials, connected: Microseconds) {
        self.id = id
        self.credentials = credentials
        self.connected = connected
    }

    /// `connection 3 (pid 812, uid 1000)`, as the log names a client.
    public var description: String { "connection \(id) (pid \(credentials.pid), uid \(credentials.uid))" }
}
