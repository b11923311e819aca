import ConfigModel
import GestureControl
import GestureCore

/// The runtime changes (`set`, `mode`, `reset`, a connection that closed) applied to the
/// engine: each operation changes `runtime`, then the differences of its layout reach the
/// engine in place (`GestureEngine.setGesture`, `setView`) at the operation's time, before
/// the next frame. Each operation that changed something is a `.runtime` output, followed
/// by what it caused (a gesture disabled while running ends then).
extension GesturePipeline {
    /// A `set`, `mode` or `reset` by `owner` at `time`. The update says what changed (for
    /// the reply); when something did, it is also an output.
    @discardableResult
    public func perform(_ command: RuntimeCommand, by owner: RuntimeOwner, at time: Microseconds) throws(ControlError)
        -> RuntimeUpdate
    {
        let before = runtime.layout()
        var update = RuntimeUpdate(time: time, owner: owner)
        switch command {
        case .set(let request):
            let earlier = runtime.changes
            try runtime.apply(request, by: owner, at: time)
            update.added = runtime.changes.last
            update.removed = earlier.filter { $0.target == request.target && $0.owner == owner }
        case .mode(let request):
            update.mode = try runtime.switchMode(
                to: request.mode, until: request.duration.map { time + $0 }, keep: request.keep, by: owner, at: time)
        case .reset(let all):
            update.removed = runtime.reset(owner: owner, all: all)
        }
        return commit(update, from: before)
    }

    /// The owner is gone (its connection closed): its changes not kept are undone, and the
    /// mode it switched on without `keep` ends.
    @discardableResult
    public func ownerLeft(_ owner: RuntimeOwner, at time: Microseconds) -> RuntimeUpdate {
        let before = runtime.layout()
        var update = RuntimeUpdate(time: time, owner: owner)
        (update.removed, update.mode) = runtime.undo(owner: owner)
        return commit(update, from: before)
    }

    /// Performs the mode switch of `event`'s actions (`mode = "NAME"`, `for`), if they have
    /// one, at the event's time, by `.action(gesture:)`: the stream does for each event it
    /// takes, `gesturectl trigger` for an event of its own. Returns the mode it switched to.
    @discardableResult
    public func performModeAction(of event: GestureEvent) -> ModeRequest? {
        guard !modeActions.isEmpty, let request = modeActions[event.gesture][event.state] else { return nil }
        // The config declared the mode (checked when it was read): nothing to refuse.
        _ = try? perform(.mode(request), by: .action(gesture: configuration.model.gestures[event.gesture].name), at: event.time)
        return request
    }

    /// The mode switches of each gesture's actions; empty when there are none.
    static func modeSwitches(of configuration: Configuration) -> [[GestureState: ModeRequest]] {
        var any = false
        let table = configuration.actions.map { actions in
            actions.byState.compactMapValues { specs -> ModeRequest? in
                for spec in specs {
                    if case .mode(let name, let duration) = spec.kind {
                        any = true
                        return ModeRequest(mode: name, duration: duration)
                    }
                }
                return nil
            }
        }
        return any ? table : []
    }

    /// The mode's `for` ran out at `time`.
    func endMode(at time: Microseconds) {
        advancePath(to: time)
        let before = runtime.layout()
        var update = RuntimeUpdate(time: time)
        update.mode = runtime.advance(to: time)
        commit(update, from: before)
    }

    /// Applies the layout's differences to the engine and puts the update in the stream,
    /// after what was due before it and before what it cancelled.
    @discardableResult
    private func commit(_ update: RuntimeUpdate, from before: EffectiveLayout) -> RuntimeUpdate {
        var update = update
        let after = runtime.layout()
        update.layout = runtime.differences(from: before, to: after)
        guard !update.isEmpty else { return update }
        advancePath(to: update.time)
        outputs.append(.runtime(update))
        // Read in place, never a copy of the model kept across the calls: the engine then
        // changes its arrays without copying them.
        for g in after.gestures.indices where engine.model.gestures[g].enabled != after.gestures[g] {
            engine.setGesture(g, enabled: after.gestures[g], at: update.time, into: &events)
        }
        for v in after.frames.indices
        where engine.model.views[v].enabled != after.viewsEnabled[v] || engine.model.views[v].frame != after.frames[v] {
            engine.setView(v, enabled: after.viewsEnabled[v], frame: after.frames[v], at: update.time, into: &events)
        }
        endStep()
        return update
    }

    /// The stages', the engine's and the pacer's deadlines up to `time`, each a step, in
    /// time order (not a mode's end).
    func advancePath(to time: Microseconds) {
        while true {
            let due = path.nextDeadline.flatMap { $0 <= time ? $0 : nil }
            if let paced = pacer.nextDeadline, paced <= time, due.map({ paced < $0 }) ?? true {
                pacer.expire(upTo: paced, into: &outputs)
                continue
            }
            guard let due else { break }
            path.advance(to: due, into: &events)
            endStep()
        }
        path.advance(to: time, into: &events)
        endStep()
    }
}
