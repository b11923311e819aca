import GestureCore

/// `[idle]`: after `after` without a touch the screen is idle and `[idle.on.sleep]` runs;
/// the next touch is consumed by gestured and runs `[idle.on.wake]` (docs/CONFIG.md, "`[idle]`").
public struct IdleRule: Equatable, Sendable {
    public var after: Microseconds
    /// Command actions, in order.
    public var onSleep: [ActionSpec]
    public var onWake: [ActionSpec]

    /// The least `after` (docs/LIMITS.md): a second, for tests and demonstrations (every
    /// duration is at most a day).
    public static let minimumAfter: Microseconds = 1_000_000

    public init(after: Microseconds, onSleep: [ActionSpec] = [], onWake: [ActionSpec] = []) {
        self.after = after
        self.onSleep = onSleep
        self.onWake = onWake
    }
}
