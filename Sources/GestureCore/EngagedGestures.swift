/// The gestures that hold contacts, have a deadline or have left `possible`, as bits over
/// their rank in `Relations.order`. The engine's per-frame loops visit only these, in
/// arbitration order, so a frame costs what the touched views hold rather than what the
/// whole model holds. Allocation-free after `init`.
struct EngagedGestures {
    /// `rank[g]`: the position of gesture g in `Relations.order`.
    private let rank: [Int]
    private let order: [Int]
    /// Bit k of word k / 64: the gesture `order[k]` is engaged.
    private(set) var words: [UInt64]

    init(order: [Int]) {
        self.order = order
        var rank = [Int](repeating: 0, count: order.count)
        for (k, g) in order.enumerated() { rank[g] = k }
        self.rank = rank
        words = [UInt64](repeating: 0, count: (order.count + 63) / 64)
    }

    @inline(__always) mutating func insert(_ g: Int) {
        let k = rank[g]
        words[k >> 6] |= 1 << UInt64(k & 63)
    }

    @inline(__always) mutating func remove(_ g: Int) {
        let k = rank[g]
        words[k >> 6] &= ~(1 << UInt64(k & 63))
    }

    /// The gesture of bit `bit` in word `word`.
    @inline(__always) func gesture(word: Int, bit: Int) -> Int { order[word << 6 | bit] }
}
