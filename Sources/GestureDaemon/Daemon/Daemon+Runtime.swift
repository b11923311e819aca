import ActionDispatch
import GestureConfig
import GestureControl
import GestureCore
import TouchPipeline

/// The runtime commands (`set`, `mode`, `reset`) and their owners: each control connection
/// owns what it changed, undone when it closes unless kept (docs/PROTOCOL.md).
extension Daemon {
    /// The owner a connection's changes are recorded under.
    static func owner(of peer: ControlPeer) -> RuntimeOwner {
        .client(connection: peer.id, pid: peer.credentials.pid, uid: peer.credentials.uid)
    }

    /// `set`, `mode` or `reset` from `peer`: in force at once (before the next frame); the
    /// reply says what changed.
    func perform(_ command: RuntimeCommand, from peer: ControlPeer) -> ControlReply {
        // What the panels sent before the command is theirs to finish under the old layout
        // (the time read first, as in `deadlinePassed`).
        let now = loop.now()
        input.drain()
        do {
            let update = try pipeline.perform(command, by: Self.owner(of: peer), at: now)
            return .success(update.reply { uptimeSeconds($0, origin: origin) })
        } catch {
            return .failure(error)
        }
    }

    public func connectionClosed(_ peer: ControlPeer) {
        let update = pipeline.ownerLeft(Self.owner(of: peer), at: loop.now())
        guard !update.removed.isEmpty || update.mode != nil else { return }
        var undone = update.removed.map(\.target.description)
        if let mode = update.mode?.from { undone.append("mode '\(mode)'") }
        logger.notice(
            "control: \(peer) closed; undid its changes: \(undone.joined(separator: ", "))",
            metadata: .journal(.changesUndone, client: peer.credentials))
    }

    /// `status.runtime`: the mode and the changes in force, with their owners.
    var runtimeStatus: RuntimeStatus {
        let runtime = pipeline.runtime
        let seconds = { (time: Microseconds) in uptimeSeconds(time, origin: self.origin) }
        return RuntimeStatus(
            mode: runtime.mode.map {
                RuntimeStatus.Mode(
                    name: $0.name, owner: Self.status(of: $0.owner), keep: $0.keep, since: seconds($0.since), until: $0.until.map(seconds))
            },
            changes: runtime.changes.map { change in
                RuntimeStatus.Change(
                    kind: change.target.kind, name: change.target.name, enabled: change.enabled,
                    frame: change.frame.map { [$0.x, $0.y, $0.width, $0.height].map(\.description) }, owner: Self.status(of: change.owner),
                    keep: change.keep, since: seconds(change.since))
            })
    }

    private static func status(of owner: RuntimeOwner) -> RuntimeStatus.Owner {
        switch owner {
        case .client(let connection, let pid, let uid):
            RuntimeStatus.Owner(kind: "client", connection: connection, pid: Int(pid), uid: Int(uid))
        case .action(let gesture): RuntimeStatus.Owner(kind: "action", gesture: gesture)
        case .script: RuntimeStatus.Owner(kind: "script")
        }
    }
}
