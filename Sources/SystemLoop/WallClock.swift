#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_REALTIME, for the timestamps a monitoring system compares across machines
/// (`status.start_time_s`); durations use `MonotonicClock`.
public enum WallClock {
    /// Seconds since the Unix epoch, to the millisecond.
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec / 1_000_000) / 1000
    }
}
