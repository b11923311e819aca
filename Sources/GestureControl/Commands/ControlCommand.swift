/// The control socket's routing table (docs/PROTOCOL.md): one row per command, its name
/// (`cmd`), who may use it (`access`) and the typed request its members are read into
/// (`request(_:)`). The server looks a request's `cmd` up here, checks the access, reads
/// the request, and serves `subscribe` or hands the rest to the daemon's handler, which
/// switches over `DaemonRequest` (a row without a handler does not compile).
/// `unknown-command` lists the names from here; gesturectl sends them by case. A new
/// command: a case here with its access and request, its `DaemonRequest` case and handler,
/// its section in PROTOCOL.md (a test holds the table and the document equal).
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

    /// The commands that change the gesture layer at runtime (`RuntimeCommand`): what
    /// `control` access adds to `read`. Their changes belong to the connection that made them.
    public static var runtime: [ControlCommand] { allCases.filter { $0.access == .control } }

    /// What a client must be allowed to use the command (docs/PROTOCOL.md, "Who may do what").
    public var access: ControlAccess {
        switch self {
        case .status, .devices, .subscribe, .metrics: .read
        case .set, .mode, .reset: .control
        case .reload, .trigger, .replayStart: .admin
        }
    }

    /// Reads the request's members into the command's typed value; a `bad-request` error
    /// says what is wrong. Members a command does not read are ignored, except by the
    /// runtime commands, which refuse them (a misspelt `enable` would be a silent no-op).
    public func request(_ json: JSONValue) throws(ControlError) -> ControlRequest {
        switch self {
        case .status: .daemon(.status)
        case .reload: .daemon(.reload)
        case .devices: .daemon(.devices)
        case .subscribe: .subscribe(SubscribeRequest(json))
        case .trigger: .daemon(.trigger(try TriggerRequest(json)))
        case .metrics: .daemon(.metrics)
        case .replayStart: .daemon(.replayStart)
        case .set, .mode, .reset: .daemon(.runtime(try RuntimeCommand(self, request: json)))
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
