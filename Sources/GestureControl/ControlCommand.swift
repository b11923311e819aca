/// The control socket's commands (docs/PROTOCOL.md): the server answers status, reload,
/// devices and subscribe itself and hands the others to the daemon. `unknown-command`
/// lists them from here.
public enum ControlCommand: String, CaseIterable, Sendable {
    case status
    case reload
    case devices
    case subscribe
    case trigger
    case metrics
    case replayStart = "replay-start"
    case set
    case mode
    case reset

    /// `status, reload, ...` for the `unknown-command` message.
    public static var known: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// What a client must be allowed to use the command (docs/PROTOCOL.md, "Who may do what").
    public var access: ControlAccess {
        switch self {
        case .status, .devices, .subscribe, .metrics: .read
        case .set, .mode, .reset: .control
        case .reload, .trigger, .replayStart: .admin
        }
    }
}

/// A client's rights on the control socket, each including the ones before it: `read`
/// looks, `control` also shapes the gesture layer (the kiosk application's group,
/// `[daemon] control_group`), `admin` also reloads, triggers and replays (the socket's group).
public enum ControlAccess: Int, Comparable, Sendable, CustomStringConvertible {
    case read
    case control
    case admin

    public static func < (a: ControlAccess, b: ControlAccess) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .read: "read"
        case .control: "control"
        case .admin: "admin"
        }
    }

    /// The commands this access allows, in the table's order.
    public var commands: [ControlCommand] { ControlCommand.allCases.filter { $0.access <= self } }
}
