/// The rate of filtered contacts against a per-minute limit: the times of the last
/// `limit + 1` of them, in a ring allocated once. The rate is over the limit while all of
/// them fall within the last minute.
struct FilterRate {
    static let window: Microseconds = 60_000_000

    private var times: [Microseconds]
    private var next = 0
    private var kept = 0

    init(perMinute limit: Int) {
        times = [Microseconds](repeating: 0, count: limit + 1)
    }

    var limit: Int { times.count - 1 }

    mutating func record(_ time: Microseconds) {
        times[next] = time
        next = (next + 1) % times.count
        kept = min(kept + 1, times.count)
    }

    /// While the rate at `now` is over the limit, the time it falls back to the limit (the
    /// oldest kept time leaving the window); nil when it is not over.
    func overUntil(_ now: Microseconds) -> Microseconds? {
        guard kept == times.count else { return nil }
        let end = times[next] + Self.window
        return end > now ? end : nil
    }

    /// Filtered contacts within the minute before `now` (at most `limit + 1`: the reason's number).
    func count(at now: Microseconds) -> Int {
        var n = 0
        for i in 0..<kept where times[i] > now - Self.window { n += 1 }
        return n
    }
}
