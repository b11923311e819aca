/// Recurring spots (Chromium's SinglePositionTouchNoiseFilter, in mm, masking instead of
/// judging each touch): the recent still contacts, and the spots masked because enough of
/// them landed close together. Both in storage allocated once.
struct SpotTracker {
    /// One still contact where it went down, mm and screen px.
    struct Landing {
        var x = 0.0, y = 0.0
        var time: Microseconds = .min
    }

    /// A masked spot: contacts landing within the radius are ignored until it stays quiet.
    struct Spot {
        var x = 0.0, y = 0.0
        var px = 0.0, py = 0.0
        /// When it was masked, and when a contact last landed on it.
        var since: Microseconds = 0
        var lastHit: Microseconds = 0
        var active = false
    }

    /// Landings remembered (Chromium keeps 100 touches).
    static let remembered = 128
    /// Spots masked at once; a further one replaces the one quiet longest.
    static let capacity = 16

    let count: Int
    let radius: Double
    let within: Microseconds
    let release: Microseconds
    private var landings = [Landing](repeating: Landing(), count: remembered)
    private var next = 0
    private(set) var spots = [Spot](repeating: Spot(), count: capacity)

    init(count: Int, radiusMM: Double, within: Microseconds, release: Microseconds) {
        self.count = count
        self.radius = radiusMM
        self.within = within
        self.release = release
    }

    /// Whether (x, y) mm lies on a masked spot; a hit keeps the spot masked for longer.
    mutating func masks(x: Double, y: Double, at time: Microseconds) -> Bool {
        for s in 0..<spots.count where spots[s].active && length(spots[s].x - x, spots[s].y - y) <= radius {
            spots[s].lastHit = time
            return true
        }
        return false
    }

    /// Remembers a still contact that went down at (x, y) mm, (px, py) screen px at `time` and
    /// lifted at `now`. Returns true when this landing makes its spot recur enough to be
    /// masked (from `now`).
    mutating func land(x: Double, y: Double, px: Double, py: Double, at time: Microseconds, now: Microseconds) -> Bool {
        landings[next] = Landing(x: x, y: y, time: time)
        next = (next + 1) % landings.count
        var near = 0
        for i in 0..<landings.count
        where landings[i].time >= time - within && length(landings[i].x - x, landings[i].y - y) <= radius {
            near += 1
        }
        guard near >= count else { return false }
        var slot = 0
        for s in 0..<spots.count {
            if !spots[s].active {
                slot = s
                break
            }
            if spots[s].lastHit < spots[slot].lastHit { slot = s }
        }
        spots[slot] = Spot(x: x, y: y, px: px, py: py, since: now, lastHit: time, active: true)
        return true
    }

    /// The earliest time a masked spot is released, or nil.
    var nextRelease: Microseconds? {
        var earliest: Microseconds?
        for s in 0..<spots.count where spots[s].active {
            let due = spots[s].lastHit + release
            if earliest == nil || due < earliest! { earliest = due }
        }
        return earliest
    }

    /// Releases the spots quiet for `release` at `time`, calling `body` with each.
    mutating func releaseQuiet(at time: Microseconds, _ body: (Spot) -> Void) {
        for s in 0..<spots.count where spots[s].active && spots[s].lastHit + release <= time {
            spots[s].active = false
            body(spots[s])
        }
    }

    /// The spots masked now.
    var active: [Spot] { spots.filter(\.active) }

    /// Spots masked now.
    var activeCount: Int {
        var n = 0
        for s in 0..<spots.count where spots[s].active { n += 1 }
        return n
    }
}
