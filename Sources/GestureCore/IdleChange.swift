/// The screen went idle (no touch for `[idle] after`), or became active again: what the
/// pipeline's idle stage reports, the event stream shows and `[idle.on.sleep]` /
/// `[idle.on.wake]` actions get.
public struct IdleChange: Sendable, Equatable {
    public enum Cause: Sendable, Equatable {
        /// `after` passed without a touch: the screen is idle.
        case timeout
        /// A touch on this device woke it (that touch is consumed, down to up).
        case touch(DeviceID)
        /// A reload removed `[idle]`: active again without a touch, and without wake actions.
        case reload
    }

    public var time: Microseconds
    /// True: idle from now; false: active.
    public var idle: Bool
    public var cause: Cause

    public init(time: Microseconds, idle: Bool, cause: Cause) {
        self.time = time
        self.idle = idle
        self.cause = cause
    }

    /// `idle` or `active`, as the event line and `status` say it.
    public var state: String { idle ? "idle" : "active" }
}
