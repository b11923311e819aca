/// The bit masks sysfs shows for input devices (`capabilities/abs`, `properties`): hex words
/// of `unsigned long`, most significant word first, separated by spaces.
enum SysfsBitmask {
    /// The set bits, or nil when the text is not such a mask.
    static func bits(_ text: String) -> Set<UInt16>? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard !words.isEmpty else { return nil }
        var bits: Set<UInt16> = []
        for (index, word) in words.reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { return nil }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 {
                bits.insert(UInt16(index * 64 + bit))
            }
        }
        return bits
    }
}
