import GestureControl

/// What a command answers: the value of `ok`, or an error.
public typealias ControlReply = Result<JSONValue, ControlError>

/// The daemon side of the control protocol's commands. The server parses, limits, checks
/// access and reads each request into its typed value (`ControlCommand`); the handler
/// answers it. `subscribe` the server serves itself.
public protocol ControlHandler: AnyObject {
    /// Answers `request` from the client `peer`, whom the server has allowed it (the
    /// replies' schemas are in docs/PROTOCOL.md).
    func handle(_ request: DaemonRequest, from peer: ControlPeer) -> ControlReply
    /// The connection of `peer`, which sent `set`, `mode` or `reset`, closed: what it
    /// changed without `keep` is undone.
    func connectionClosed(_ peer: ControlPeer)
}

extension ControlHandler {
    public func connectionClosed(_ peer: ControlPeer) {}
}
