import GestureCore

/// The time an event loop's users read (`EventLoop.now()`) and its timers fire at: the
/// control server's request and idle timeouts, the command runner's timeouts and kill
/// grace, the socket actions' retries. A test gives the loop a `ManualClock` and moves it
/// instead of sleeping; the engine's time arrives the same way, through `advance(to:)`.
public enum LoopClock {
    /// CLOCK_MONOTONIC; timerfds fire the deadlines.
    case monotonic
    /// Moves only when told to; the loop fires the deadlines it has passed on its next turn.
    case manual(ManualClock)

    public func now() -> Microseconds {
        switch self {
        case .monotonic: MonotonicClock.now()
        case .manual(let clock): clock.now
        }
    }
}

/// A clock that stands still until `advance(by:)`: timeouts are reached without waiting
/// for them, and no test depends on how fast the machine is.
public final class ManualClock {
    public private(set) var now: Microseconds

    /// Starts well after zero, as CLOCK_MONOTONIC does (no time is mistaken for "unset").
    public init(now: Microseconds = 1_000_000_000) { self.now = now }

    public func advance(by interval: Microseconds) {
        precondition(interval >= 0, "a monotonic clock does not go back")
        now += interval
    }
}
