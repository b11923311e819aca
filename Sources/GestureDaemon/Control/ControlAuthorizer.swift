import GestureControl
import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// Who may do what on the control socket, decided per command from the peer's credentials
/// (docs/PROTOCOL.md, "Who may do what"). Without a control group every client that can
/// connect may do everything, as the socket's permissions alone decide. With one, the
/// socket's group (and root, and the daemon's own user) may do everything, the control
/// group may look and shape the gesture layer, and anyone else the mode lets in only looks.
public struct ControlAuthorizer: Sendable {
    /// A group by name and id, the name for messages.
    public struct Group: Equatable, Sendable {
        public var name: String
        public var id: gid_t
        public init(name: String, id: gid_t) {
            self.name = name
            self.id = id
        }
    }

    /// The socket file's group: its members may do everything.
    public var adminGroup: Group
    /// `[daemon] control_group`; nil: no per-command check.
    public var controlGroup: Group?
    /// The daemon's user (and root) may do everything.
    public var daemonUser: uid_t

    public init(adminGroup: Group, controlGroup: Group?, daemonUser: uid_t = geteuid()) {
        self.adminGroup = adminGroup
        self.controlGroup = controlGroup
        self.daemonUser = daemonUser
    }

    /// What `peer` may do.
    public func access(of peer: PeerCredentials) -> ControlAccess {
        guard let controlGroup else { return .admin }
        if peer.uid == 0 || peer.uid == daemonUser || peer.isMember(of: adminGroup.id) { return .admin }
        return peer.isMember(of: controlGroup.id) ? .control : .read
    }

    /// Nil when `peer` may use `command`; otherwise the `forbidden` error, naming the group
    /// that would allow it and what the peer may use.
    public func refusal(of command: ControlCommand, for peer: PeerCredentials) -> ControlError? {
        let access = access(of: peer)
        guard command.access > access else { return nil }
        let needed =
            command.access == .admin
            ? "group \(adminGroup.name) (the socket's group, [daemon] socket_group)"
            : "group \(controlGroup?.name ?? adminGroup.name) ([daemon] control_group) or \(adminGroup.name)"
        let allowed = access.commands.map(\.rawValue).joined(separator: ", ")
        return ControlError(
            code: "forbidden",
            message: "\"\(command.rawValue)\" needs \(needed); this client (uid \(peer.uid), pid \(peer.pid)) may use: \(allowed)")
    }
}
