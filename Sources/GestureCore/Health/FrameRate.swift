/// Frames per second of one panel over the last second, from the frames' own times (the
/// caller's clock says when "now" is; nothing here reads one). The times of the last
/// `capacity` frames sit in a ring allocated once.
struct FrameRate {
    static let window: Microseconds = 1_000_000
    /// More than any panel reports in a second (240 Hz is the fastest seen).
    static let capacity = 512

    private var times = [Microseconds](repeating: .min, count: capacity)
    private var next = 0

    mutating func record(_ time: Microseconds) {
        times[next] = time
        next += 1
        if next == times.count { next = 0 }
    }

    /// Frames within the second before `now`. A ring full of that second (a panel faster
    /// than `capacity` a second) is measured over the span it covers instead.
    func perSecond(at now: Microseconds) -> Double {
        var n = 0
        for i in 0..<times.count where times[i] > now - Self.window && times[i] <= now { n += 1 }
        guard n == times.count else { return Double(n) }
        let newest = times[(next + times.count - 1) % times.count]
        let oldest = times[next]
        return newest > oldest ? Double(n - 1) * 1_000_000 / Double(newest - oldest) : Double(n)
    }
}
