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

    /// `seconds` (since the epoch) as ISO 8601 in UTC, to the millisecond:
    /// `2026-11-27T14:02:03.412Z`.
    public static func iso8601(_ seconds: Double) -> String {
        var whole = time_t(seconds.rounded(.down))
        let millis = min(999, Int(((seconds - seconds.rounded(.down)) * 1000).rounded()))
        var parts = tm()
        gmtime_r(&whole, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}
