/// The rate of change of a value (one or two components) over the recent past: the average
/// over the samples of the last `GestureDefaults.velocityWindow`, as UIKit-like apps expect,
/// rather than the last frame's step, which jumps with every irregular frame interval.
///
/// A fixed ring of samples, so following a gesture allocates nothing. Only changes are
/// recorded: a finger that rests adds no sample, so a release after a pause reports zero.
/// The ring is SIMD vectors used as fixed-size arrays: stored inline like `InlineArray`,
/// which needs Swift 6.2, where Debian 13 packages 6.0 (README.md, "Debian's own Swift").
struct VelocityEstimator {
    static let capacity = 32

    private var times = SIMD32<Microseconds>(repeating: 0)
    private var a = SIMD32<Double>(repeating: 0)
    private var b = SIMD32<Double>(repeating: 0)
    /// Index of the newest sample; `count` samples end there.
    private var newest = 0
    private var count = 0

    /// Records the value at `time` if it changed since the last sample (a later sample at
    /// the same time replaces it).
    mutating func record(_ time: Microseconds, _ valueA: Double, _ valueB: Double = 0) {
        if count > 0 {
            if a[newest] == valueA, b[newest] == valueB { return }
            if times[newest] >= time {
                a[newest] = valueA
                b[newest] = valueB
                return
            }
        }
        newest = count == 0 ? 0 : (newest + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
        times[newest] = time
        a[newest] = valueA
        b[newest] = valueB
    }

    /// Units per second at `now`: the change from the oldest to the newest sample within the
    /// window before `now`, divided by their time apart; zero with fewer than two such samples.
    ///
    /// `mutating` though it changes nothing: callers read it into another property of the
    /// same inout value, and as a non-mutating call Swift first copied the whole ring (784
    /// bytes) to the stack, three times a frame per pinch, rotation or pan.
    mutating func velocity(at now: Microseconds) -> (a: Double, b: Double) {
        let horizon = now - GestureDefaults.velocityWindow
        guard count > 1, times[newest] >= horizon else { return (0, 0) }
        var oldest = newest
        for back in 1..<count {
            let i = (newest - back + Self.capacity) % Self.capacity
            if times[i] < horizon { break }
            oldest = i
        }
        guard oldest != newest else { return (0, 0) }
        let seconds = Double(times[newest] - times[oldest]) / 1_000_000
        return ((a[newest] - a[oldest]) / seconds, (b[newest] - b[oldest]) / seconds)
    }
}
