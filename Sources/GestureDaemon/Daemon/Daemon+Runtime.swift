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
    func perform(_ request: JSONValue, from peer: ControlPeer) -> ControlReply? {
        do {
            guard let command = try RuntimeCommand(request: request) else { return nil }
            // What the panels sent before the command is theirs to finish under the old layout.
            input.drain()
            let update = try pipeline.perform(command, by: Self.owner(of: peer), at: loop.now())
            return .success(update.reply { uptimeSeconds($0, origin: origin) })
        } catch {
            return .failure(ControlError(code: error.code, message: error.message))
        }
    }

    public func connectionClosed(_ peer: ControlPeer) {
        let update = pipeline.ownerLeft(Self.owner(of: peer), at: loop.now())
        guard !update.removed.isEmpty || update.mode != nil else { return }
        var undone = update.removed.map(\.target.description)
        if let mode = update.mode?.from { undone.append("mode '\(mode)'") }
        logger.notice(
            "control: \(peer) closed; undid its changes: \(undone.joined(separator: ", "))", metadata: .journal(.changesUndone))
    }

    /// Hands on what runtime operations did since the last wake: a line each to subscribers,
    /// a log line for a mode that began or ended, and the mode to the actions' environment.
    func publishRuntimeUpdates() {
        guard !pipeline.runtimeUpdates.isEmpty else { return }
        for update in pipeline.runtimeUpdates {
            for line in update.streamLines(seconds: { uptimeSeconds($0, origin: origin) }) {
                EventJSON.objectLine(line, time: update.time, origin: origin, into: &traceWriter)
                server.publish(line: traceWriter.bytes, trace: false)
            }
            if let mode = update.mode { logModeChange(mode) }
            for change in update.dropped {
                logger.notice("reload: \(change.target) no longer exists; its change by \(change.owner) is dropped")
            }
        }
        pipeline.runtimeUpdates.removeAll(keepingCapacity: true)
        dispatcher.mode = pipeline.runtime.mode?.name ?? ModeSpec.none
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

    private func logModeChange(_ change: ModeChange) {
        let from = change.from ?? ModeSpec.none
        let to = change.to ?? ModeSpec.none
        let why: String =
            switch change.cause {
            case .switched(let owner): "switched by \(owner)"
            case .expired: "its time ran out"
            case .ownerGone(let owner): "\(owner) closed"
            case .removed: "the reloaded config no longer declares it"
            }
        let until = change.until.map { ", until \(uptimeSeconds($0, origin: origin)) s of uptime" } ?? ""
        logger.notice("mode: \(from) -> \(to) (\(why)\(until))")
    }
}
