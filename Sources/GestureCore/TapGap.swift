/// The wait between two taps of a multi-tap sequence, shared by the tap and by the taps
/// before a long press (`numberOfTapsRequired`): how many taps are done, when and where the
/// last one lifted, and the rule for the next one (docs/SEMANTICS.md, "Tap").
struct TapGap: Equatable {
    /// Taps completed.
    var done: Int
    var liftAt: Microseconds
    /// Where the last tap lifted: the centroid of its contacts, mm.
    var mmX: Double, mmY: Double

    init(done: Int, liftAt: Microseconds, mmX: Double, mmY: Double) {
        self.done = done
        self.liftAt = liftAt
        self.mmX = mmX
        self.mmY = mmY
    }

    /// The gap after tap number `done` lifted in `input`.
    init(done: Int, liftedIn input: RecognizerInput) {
        let (x, y) = input.contacts.centroidMM(input.mask)
        self.init(done: done, liftAt: input.time, mmX: x, mmY: y)
    }

    /// Why the contacts going down in `input` cannot be the next tap: later than `interval`
    /// after the lift, or (with a `distance`) farther than that from it. Nil when they can.
    func refusal(_ input: RecognizerInput, interval: Microseconds, distance: Length?) -> TraceReason? {
        if input.time - liftAt > interval { return .tapIntervalElapsed(interval) }
        guard let distance else { return nil }
        let c = input.contacts.centroidMM(input.began)
        let limit = input.geometry.millimeters(distance)
        let away = length(c.x - mmX, c.y - mmY)
        return away > limit ? .tapTooFar(mm: away, limit: limit) : nil
    }

    /// When the sequence lapses: the next tap may go down at `liftAt + interval` exactly,
    /// so it fails a microsecond later.
    func deadline(_ interval: Microseconds) -> Microseconds { liftAt + interval + 1 }
}
