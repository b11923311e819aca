import GestureCore

/// The idle rule (`[idle]`, docs/CONFIG.md): after `after` without a touch on any panel the
/// screen is idle; the first touch that follows wakes it and is consumed whole (every
/// contact of its device from the first one down until none is down), so neither the
/// gestures nor the application behind the clone ever see it. Touches after it pass.
///
/// The last stage: it sees what the health stage let through (a masked ghost keeps no screen
/// awake). Pure: the deadline is `nextDeadline`, time comes from frames and `expire`.
/// Allocates nothing per frame once every device has sent one.
public struct IdleStage: FrameStage {
    public enum State: Equatable, Sendable {
        /// No `[idle]` in the config.
        case off
        /// Touched lately, or a touch is down.
        case active
        /// No touch for `after`: the next touch wakes the screen.
        case idle
        /// The waking touch on this device is down: its contacts are consumed until it lifts.
        case waking(DeviceID)
    }

    public private(set) var state: State = .off
    /// `[idle] after`; nil: off (after the waking touch in progress, if any).
    public private(set) var after: Microseconds?
    /// When the state last changed (or the stage started).
    public private(set) var since: Microseconds = 0
    /// Times the screen went idle, and was woken by a touch, since start.
    public private(set) var sleeps = 0
    public private(set) var wakes = 0
    /// When a touch was last seen; nil until the stage's first step (`start`).
    private var lastTouch: Microseconds?
    /// Per device, whether a contact is down after its last frame.
    private var down: [(device: DeviceID, touching: Bool)] = []
    /// Changes not yet drained into the output stream.
    private var changes: [IdleChange] = []

    public init() {}

    /// Whether some change waits to be drained.
    public var hasUndrained: Bool { !changes.isEmpty }

    /// Moves the changes since the last call into `list`.
    mutating func drain(into list: inout [IdleChange]) {
        list.append(contentsOf: changes)
        changes.removeAll(keepingCapacity: true)
    }

    /// Takes `[idle] after` (nil: no idle rule) at `time` (nil at start: the time without a
    /// touch counts from the first step), and at each reload. A screen idle stays idle under
    /// a new `after`; one whose rule went becomes active (a `.reload` change); the waking
    /// touch in progress is consumed to its end either way.
    mutating func configure(after: Microseconds?, at time: Microseconds?) {
        self.after = after
        changes.reserveCapacity(4)
        switch (state, after) {
        case (.off, .some):
            transition(to: .active, at: time ?? 0)
            lastTouch = time
        case (.active, nil):
            transition(to: .off, at: time ?? 0)
        case (.idle, nil):
            transition(to: .off, at: time ?? 0)
            changes.append(IdleChange(time: time ?? 0, idle: false, cause: .reload))
        default:
            break
        }
    }

    /// The stage's first step: the time without a touch counts from here.
    @inline(__always) mutating func start(at time: Microseconds) {
        if lastTouch == nil, state == .active { lastTouch = time }
    }

    public mutating func process(_ frame: inout ScreenFrame) {
        guard !frame.contacts.isEmpty else { return }
        var touching = false
        for i in 0..<frame.contacts.count where !frame.contacts[i].phase.isTerminal { touching = true }
        // Kept while off too: a rule a reload turns on knows which fingers are down.
        setTouching(touching, device: frame.device)
        lastTouch = frame.time
        switch state {
        case .idle:
            wakes += 1
            changes.append(IdleChange(time: frame.time, idle: false, cause: .touch(frame.device)))
            transition(to: .waking(frame.device), at: frame.time)
            consume(&frame, lifted: !touching)
        case .waking(let device) where device == frame.device:
            consume(&frame, lifted: !touching)
        default:
            break
        }
    }

    public mutating func detach(device: DeviceID) {
        if let d = down.firstIndex(where: { $0.device == device }) { down.remove(at: d) }
        if state == .waking(device) { transition(to: after == nil ? .off : .active, at: since) }
    }

    public var nextDeadline: Microseconds? {
        guard state == .active, let after, let lastTouch else { return nil }
        for d in 0..<down.count where down[d].touching { return nil }
        return lastTouch + after
    }

    /// `after` ran out: the screen is idle. No frame goes on.
    public mutating func expire(at time: Microseconds, into frame: inout ScreenFrame) -> Bool {
        guard nextDeadline == time else { return false }
        sleeps += 1
        transition(to: .idle, at: time)
        changes.append(IdleChange(time: time, idle: true, cause: .timeout))
        return false
    }

    /// The waking touch's frame goes no further; once it has lifted, touches pass again.
    @inline(__always) private mutating func consume(_ frame: inout ScreenFrame, lifted: Bool) {
        frame.contacts.removeAll(keepingCapacity: true)
        if lifted { transition(to: after == nil ? .off : .active, at: frame.time) }
    }

    private mutating func transition(to next: State, at time: Microseconds) {
        state = next
        since = time
    }

    @inline(__always) private mutating func setTouching(_ touching: Bool, device: DeviceID) {
        for d in 0..<down.count where down[d].device == device {
            down[d].touching = touching
            return
        }
        down.append((device, touching))
    }
}
