import GestureControl

/// What a command answers: the value of `ok`, or an error.
public typealias ControlReply = Result<JSONValue, ControlError>

/// The daemon side of the control protocol's commands. The server parses, limits and
/// answers; the handler supplies the content. `subscribe` the server serves itself.
public protocol ControlHandler: AnyObject {
    /// `{"cmd": "status"}`: the status object (schema in docs/PROTOCOL.md).
    func status() -> JSONValue
    /// `{"cmd": "reload"}`: reload the config file; an error keeps the running config.
    func reload() -> ControlReply
    /// `{"cmd": "devices"}`: the touchscreens in use.
    func devices() -> JSONValue
    /// Any other command (such as `replay-start`, `set`), from the client `peer`, which the
    /// server has allowed it; nil means unknown.
    func handle(command: String, request: JSONValue, from peer: ControlPeer) -> ControlReply?
    /// The connection of `peer`, which sent `set`, `mode` or `reset`, closed: what it
    /// changed without `keep` is undone.
    func connectionClosed(_ peer: ControlPeer)
}

extension ControlHandler {
    public func handle(command: String, request: JSONValue, from peer: ControlPeer) -> ControlReply? { nil }
    public func connectionClosed(_ peer: ControlPeer) {}
}
