import ConfigModel
import GestureControl
import GestureCore

/// Who made a runtime change: the daemon supplies it, the state only compares it.
public enum RuntimeOwner: Hashable, Sendable, CustomStringConvertible {
    /// A control connection, with its peer's credentials (`SO_PEERCRED`).
    case client(connection: Int, pid: Int32, uid: UInt32)
    /// A `gesturectl replay --script` file.
    case script
    /// A gesture's action (`mode = "..."`).
    case action(gesture: String)

    public var description: String {
        switch self {
        case .client(let connection, let pid, let uid): "pid \(pid) uid \(uid) (connection \(connection))"
        case .script: "script"
        case .action(let gesture): "action of '\(gesture)'"
        }
    }

    /// The same user, for `reset` of changes kept past their connection.
    func sameUser(as other: RuntimeOwner) -> Bool {
        switch (self, other) {
        case (.client(_, _, let a), .client(_, _, let b)): a == b
        default: self == other
        }
    }
}

/// One change in force, as asked (`set`).
public struct RuntimeChange: Equatable, Sendable {
    public var target: RuntimeTarget
    public var enabled: Bool?
    /// Views: relative to the parent, in the config's units.
    public var frame: FrameSpec?
    public var owner: RuntimeOwner
    /// Outlives its connection.
    public var keep: Bool
    /// Engine time it was made (or last changed).
    public var since: Microseconds
}

/// The mode in force.
public struct ActiveMode: Equatable, Sendable {
    public var name: String
    public var owner: RuntimeOwner
    public var keep: Bool
    public var since: Microseconds
    /// It ends by itself then (`for`).
    public var until: Microseconds?
}

/// A mode that began or ended, and why.
public struct ModeChange: Equatable, Sendable {
    public enum Cause: Equatable, Sendable {
        /// A `mode` command, an action or a script line.
        case switched(by: RuntimeOwner)
        /// Its `for` ran out.
        case expired
        /// The connection that switched it closed (not kept).
        case ownerGone(RuntimeOwner)
        /// A reload removed it from the config.
        case removed
    }
    public var from: String?
    public var to: String?
    public var until: Microseconds?
    public var cause: Cause

    public init(from: String?, to: String?, until: Microseconds?, cause: Cause) {
        self.from = from
        self.to = to
        self.until = until
        self.cause = cause
    }
}

/// What the gesture layer looks like after the changes in force: per gesture its
/// `enabled`; per view its `enabled` and absolute frame (screen px).
public struct EffectiveLayout: Equatable, Sendable {
    public var gestures: [Bool]
    public var viewsEnabled: [Bool]
    public var frames: [Rect]
}

/// A difference an operation made to the effective layout, for the reply and the stream:
/// `enabled` and `frame` are set where they changed.
public struct LayoutChange: Equatable, Sendable {
    public var target: RuntimeTarget
    public var enabled: Bool?
    public var frame: Rect?

    public init(target: RuntimeTarget, enabled: Bool? = nil, frame: Rect? = nil) {
        self.target = target
        self.enabled = enabled
        self.frame = frame
    }
}

/// What one operation did: the layout differences, the mode change, the changes it undid
/// and those a reload dropped (names gone).
public struct RuntimeUpdate: Equatable, Sendable {
    public var time: Microseconds
    /// Who made it: nil for a mode that ended by itself and for a reload.
    public var owner: RuntimeOwner?
    /// The change a `set` put in force (merged with the owner's earlier one of its target).
    public var added: RuntimeChange?
    public var layout: [LayoutChange] = []
    public var mode: ModeChange?
    /// Changes taken out of force by `undo`, `reset`, or a newer change of the same owner.
    public var removed: [RuntimeChange] = []
    /// Changes a reload dropped because their gesture or view no longer exists.
    public var dropped: [RuntimeChange] = []

    public init(time: Microseconds, owner: RuntimeOwner? = nil) {
        self.time = time
        self.owner = owner
    }

    /// Nothing changed.
    public var isEmpty: Bool { added == nil && layout.isEmpty && mode == nil && removed.isEmpty && dropped.isEmpty }
}

/// The runtime changes in force over a configuration: the mode, and the explicit changes
/// (`set`) with their owners. Pure: time arrives with each call. `GesturePipeline` owns
/// one and applies its `layout` to the engine.
///
/// Precedence, lowest first: the config; the mode in force (its `[mode.NAME]` lists); the
/// explicit changes, in the order they were made (a later `set` of the same property wins).
/// A view's frame is relative to its parent, as in the config: a moved view moves its
/// subviews with it (they keep their offset and size, as UIKit's subviews do).
public struct RuntimeState: Sendable {
    /// The most changes in force at once (docs/LIMITS.md).
    public static let maximumChanges = 256

    public private(set) var configuration: Configuration
    public private(set) var changes: [RuntimeChange] = []
    public private(set) var mode: ActiveMode?

    public init(configuration: Configuration) { self.configuration = configuration }

    /// When the mode in force ends by itself, if it does.
    public var nextDeadline: Microseconds? { mode?.until }

    // MARK: operations

    /// A `set`: the owner's earlier change of the same target takes the new values (and moves
    /// last: it is the newest). Unknown names are refused with the known ones.
    public mutating func apply(_ request: SetRequest, by owner: RuntimeOwner, at time: Microseconds) throws(ControlError) {
        let model = configuration.model
        switch request.target {
        case .gesture(let name):
            guard model.gestures.contains(where: { $0.name == name }) else {
                throw .unknown("gesture", name, among: model.gestures.map(\.name))
            }
        case .view(let name):
            guard let v = model.views.firstIndex(where: { $0.name == name }) else {
                throw .unknown("view", name, among: model.views.map(\.name))
            }
            if v == 0, request.frame != nil {
                throw .badRequest("set: '\(name)' is the root view, the whole screen: its frame cannot change")
            }
        }
        var frame: FrameSpec?
        if let patch = request.frame {
            // Completed and checked against the frames now (sizes as the config checks them).
            let frames = layout().frames
            let v = index(of: request.target)
            let parent = frames[model.views[v].parent ?? 0]
            let spec = patch.completed(current: frames[v], parent: parent)
            let rect = spec.resolve(in: parent)
            guard rect.width > 0, rect.height > 0 else {
                throw .badRequest("set: frame \(spec) is \(rect.width)x\(rect.height) px: width and height must be more than 0")
            }
            frame = spec
        }
        var change = RuntimeChange(
            target: request.target, enabled: request.enabled, frame: frame, owner: owner, keep: request.keep, since: time)
        if let earlier = changes.firstIndex(where: { $0.target == request.target && $0.owner == owner }) {
            change.enabled = request.enabled ?? changes[earlier].enabled
            change.frame = frame ?? changes[earlier].frame
            changes.remove(at: earlier)
        } else if changes.count >= Self.maximumChanges {
            throw ControlError(
                code: "too-many-changes",
                message: "\(Self.maximumChanges) changes are in force already (docs/LIMITS.md): reset some first")
        }
        changes.append(change)
    }

    /// A `mode` command or action: `name` in force (nil: none), ending by itself at `until`.
    public mutating func switchMode(
        to name: String?, until: Microseconds?, keep: Bool = false, by owner: RuntimeOwner, at time: Microseconds
    ) throws(ControlError) -> ModeChange? {
        if let name, !configuration.modes.contains(where: { $0.name == name }) {
            throw .unknown("mode", name, among: configuration.modes.map(\.name))
        }
        let previous = mode?.name
        mode = name.map { ActiveMode(name: $0, owner: owner, keep: keep, since: time, until: until) }
        guard previous != name || name != nil else { return nil }
        return ModeChange(from: previous, to: name, until: until, cause: .switched(by: owner))
    }

    /// The owner's connection closed: its changes not kept are undone, and so is a mode it
    /// switched on without `keep`. Returns the changes undone.
    public mutating func undo(owner: RuntimeOwner) -> (removed: [RuntimeChange], mode: ModeChange?) {
        let removed = changes.filter { $0.owner == owner && !$0.keep }
        changes.removeAll { $0.owner == owner && !$0.keep }
        var modeChange: ModeChange?
        if let active = mode, active.owner == owner, !active.keep {
            mode = nil
            modeChange = ModeChange(from: active.name, to: nil, until: nil, cause: .ownerGone(owner))
        }
        return (removed, modeChange)
    }

    /// A `reset`: the owner's changes, kept ones too, and those kept past an earlier
    /// connection of the same user (uid); `all`: everyone's. The mode stays (switch it with
    /// `mode`).
    public mutating func reset(owner: RuntimeOwner, all: Bool) -> [RuntimeChange] {
        let matches = { (change: RuntimeChange) in all || change.owner == owner || change.keep && change.owner.sameUser(as: owner) }
        let removed = changes.filter(matches)
        changes.removeAll(where: matches)
        return removed
    }

    /// Ends the mode when its time has come.
    public mutating func advance(to time: Microseconds) -> ModeChange? {
        guard let active = mode, let until = active.until, until <= time else { return nil }
        mode = nil
        return ModeChange(from: active.name, to: nil, until: nil, cause: .expired)
    }

    /// Onto a reloaded configuration: changes whose gesture or view still exists survive
    /// (a frame that no longer fits its new parent too: it is the caller's to fix), the
    /// others are returned; a mode the new config no longer declares ends.
    public mutating func rebase(onto newConfiguration: Configuration) -> (dropped: [RuntimeChange], mode: ModeChange?) {
        configuration = newConfiguration
        let dropped = changes.filter { !exists($0.target) }
        changes = changes.filter { exists($0.target) }
        var modeChange: ModeChange?
        if let active = mode, !newConfiguration.modes.contains(where: { $0.name == active.name }) {
            mode = nil
            modeChange = ModeChange(from: active.name, to: nil, until: nil, cause: .removed)
        }
        return (dropped, modeChange)
    }

    // MARK: the layout

    /// The config, then the mode, then the explicit changes in order.
    public func layout() -> EffectiveLayout {
        let model = configuration.model
        var gestures = model.gestures.map(\.enabled)
        var viewsEnabled = model.views.map(\.enabled)
        var specs = [FrameSpec?](repeating: nil, count: model.views.count)
        if let active = mode, let spec = configuration.modes.first(where: { $0.name == active.name }) {
            for toggle in spec.gestures { gestures[toggle.index] = toggle.enabled }
            for toggle in spec.views { viewsEnabled[toggle.index] = toggle.enabled }
        }
        for change in changes {
            let i = index(of: change.target)
            switch change.target {
            case .gesture: if let enabled = change.enabled { gestures[i] = enabled }
            case .view:
                if let enabled = change.enabled { viewsEnabled[i] = enabled }
                if let frame = change.frame { specs[i] = frame }
            }
        }
        // Parents come before their children: one pass places every view in its parent.
        var frames = model.views.map(\.frame)
        for (v, view) in model.views.enumerated() {
            guard let p = view.parent else { continue }
            if let spec = specs[v] {
                frames[v] = spec.resolve(in: frames[p])
            } else {
                let configured = view.frame
                let parent = model.views[p].frame
                frames[v].x = frames[p].x + configured.x - parent.x
                frames[v].y = frames[p].y + configured.y - parent.y
            }
        }
        return EffectiveLayout(gestures: gestures, viewsEnabled: viewsEnabled, frames: frames)
    }

    /// The differences from `old` to `new`, both layouts of this configuration.
    public func differences(from old: EffectiveLayout, to new: EffectiveLayout) -> [LayoutChange] {
        let model = configuration.model
        var result: [LayoutChange] = []
        for g in model.gestures.indices where old.gestures[g] != new.gestures[g] {
            result.append(LayoutChange(target: .gesture(model.gestures[g].name), enabled: new.gestures[g]))
        }
        for v in model.views.indices where old.viewsEnabled[v] != new.viewsEnabled[v] || old.frames[v] != new.frames[v] {
            result.append(
                LayoutChange(
                    target: .view(model.views[v].name),
                    enabled: old.viewsEnabled[v] != new.viewsEnabled[v] ? new.viewsEnabled[v] : nil,
                    frame: old.frames[v] != new.frames[v] ? new.frames[v] : nil))
        }
        return result
    }

    /// The model with the layout applied: what the engine runs.
    public func effectiveModel() -> GestureModel {
        var model = configuration.model
        let layout = layout()
        for g in model.gestures.indices { model.gestures[g].enabled = layout.gestures[g] }
        for v in model.views.indices {
            model.views[v].enabled = layout.viewsEnabled[v]
            model.views[v].frame = layout.frames[v]
        }
        return model
    }

    private func exists(_ target: RuntimeTarget) -> Bool {
        switch target {
        case .gesture(let name): configuration.model.gestures.contains { $0.name == name }
        case .view(let name): configuration.model.views.contains { $0.name == name }
        }
    }

    /// The index of a target known to exist.
    private func index(of target: RuntimeTarget) -> Int {
        switch target {
        case .gesture(let name): configuration.model.gestures.firstIndex { $0.name == name }!
        case .view(let name): configuration.model.views.firstIndex { $0.name == name }!
        }
    }
}
