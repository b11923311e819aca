/// The candidate closest to a misspelt name, when it is close enough to be a typo.
enum DidYouMean {
    static func suggestion(for name: String, among candidates: [String]) -> String? {
        let limit = max(1, min(3, name.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            if distance <= limit, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance, with `-` and `_` counted as the same character.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.replacing("-", with: "_")), b = Array(b.replacing("-", with: "_"))
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
