/// The event types and codes one device advertises, as a flat bitmap: the check that lets an
/// event into the normalizer (and libmtdev, which indexes its tables by the raw code without
/// a bound check) costs a shift and a mask, and allocates nothing.
///
/// `EV_SYN`'s `SYN_REPORT`, `SYN_CONFIG`, `SYN_MT_REPORT` and `SYN_DROPPED` are always in;
/// any other event passes only when the device's capabilities list its type and code. A code
/// above its type's maximum, or a type above `EV_MAX`, is never in.
struct AdvertisedEvents {
    /// First bit of each type's codes in `words`; -1 for a type the device does not report.
    private var base: [Int]
    /// Each type's highest code (0 for a type the device does not report).
    private var maximum: [UInt16]
    private var words: [UInt64]

    init(_ capabilities: DeviceCapabilities) {
        let typeCount = Int(InputCodes.evMax) + 1
        base = Array(repeating: -1, count: typeCount)
        maximum = Array(repeating: 0, count: typeCount)
        var bits = 0
        for type in capabilities.types.sorted() where Int(type) < typeCount {
            guard let max = InputCodes.maximumCode(ofType: type) else { continue }
            base[Int(type)] = bits
            maximum[Int(type)] = max
            bits += Int(max) + 1
        }
        words = Array(repeating: 0, count: (bits + 63) / 64)
        for (type, codes) in capabilities.codes where type != InputCodes.evSyn {
            for code in codes { insert(type: type, code: code) }
        }
        for code in [InputCodes.synReport, InputCodes.synConfig, InputCodes.synMTReport, InputCodes.synDropped] {
            insert(type: InputCodes.evSyn, code: code)
        }
    }

    /// True when the device advertises the event's type and code.
    @inline(__always)
    func contains(type: UInt16, code: UInt16) -> Bool {
        guard Int(type) < base.count else { return false }
        let start = base[Int(type)]
        guard start >= 0, code <= maximum[Int(type)] else { return false }
        let bit = start + Int(code)
        return words[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    private mutating func insert(type: UInt16, code: UInt16) {
        guard Int(type) < base.count, base[Int(type)] >= 0, code <= maximum[Int(type)] else { return }
        let bit = base[Int(type)] + Int(code)
        words[bit >> 6] |= 1 << UInt64(bit & 63)
    }
}
