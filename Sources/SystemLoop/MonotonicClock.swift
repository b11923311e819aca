import GestureCore

#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in microseconds: the engine's and the kernel's input time base.
public enum MonotonicClock {
    public static func now() -> Microseconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Microseconds(ts.tv_sec) * 1_000_000 + Microseconds(ts.tv_nsec) / 1_000
    }
}
