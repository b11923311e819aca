/// The control socket's commands (docs/PROTOCOL.md): the server answers the first four
/// itself and hands the others to the daemon. `unknown-command` lists them from here.
public enum ControlCommand: String, CaseIterable, Sendable {
    case status
    case reload
    case devices
    case subscribe
    case trigger
    case metrics
    case replayStart = "replay-start"

    /// `status, reload, ...` for the `unknown-command` message.
    public static var known: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
