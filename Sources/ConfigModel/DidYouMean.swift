/// The candidate closest to a misspelt name, when it is close enough to be a typo.
public enum DidYouMean {
    /// Names longer than this get no suggestion: no key or name is this long, and the
    /// work stays bounded whatever the file holds (a 3 MiB key took 31 s and 707 MB).
    static let maximumLength = 64

    public static func suggestion(for name: String, among candidates: [String]) -> String? {
        guard name.utf8.count <= 4 * maximumLength, name.count <= maximumLength else { return nil }
        // Short names get no guesses beyond spelling variants: 'b' is not a typo of 'a'.
        let limit = min(3, name.count / 3)
        let normalized = Self.normalized(name)
        var best: (candidate: String, distance: Int)?
        // Each edit changes the length by one at most: farther lengths cannot be close.
        for candidate in candidates where abs(candidate.count - name.count) <= limit {
            let distance = editDistance(normalized, Self.normalized(candidate), limit: limit)
            if distance <= limit, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate ?? stem(of: normalized, among: candidates)
    }

    /// A word the name extends (`upward` -> `up`, `threshold_px` -> `threshold`), the longest
    /// one; else a word the name is the start of but for its last letter (`rotate` ->
    /// `rotation`, at most three letters more). Edits alone miss these: the lengths differ
    /// too much.
    private static func stem(of name: [Character], among candidates: [String]) -> String? {
        var extended: (candidate: String, length: Int)?
        var stem: (candidate: String, tail: Int)?
        for candidate in candidates {
            let word = normalized(candidate)
            guard word.count >= 2, word != name else { continue }
            let common = zip(name, word).prefix { $0 == $1 }.count
            if common == word.count, word.count > extended?.length ?? 0 {
                extended = (candidate, word.count)
            } else if name.count >= 4, common >= name.count - 1, word.count > name.count, word.count - common <= 3,
                word.count - common < stem?.tail ?? .max
            {
                stem = (candidate, word.count - common)
            }
        }
        return extended?.candidate ?? stem?.candidate
    }

    /// Lowercased, with `-` and `_` as the same character.
    private static func normalized(_ name: String) -> [Character] {
        name.lowercased().map { $0 == "-" ? "_" : $0 }
    }

    /// Edit distance counting a swap of neighbours as one edit (optimal string alignment),
    /// or `limit + 1` as soon as it must be more than `limit`. Three rows, not a table.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var older = [Int](repeating: 0, count: b.count + 1)  // row i - 2
        var previous = Array(0...b.count)  // row i - 1
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], older[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            // Distances never shrink from one row to the next (bar one swap): stop early.
            if rowMinimum > limit + 1 { return limit + 1 }
            (older, previous, current) = (previous, current, older)
        }
        return min(previous[b.count], limit + 1)
    }
}
