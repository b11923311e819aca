/// The candidate closest to a misspelt name, when it is close enough to be a typo.
enum DidYouMean {
    /// Names longer than this get no suggestion: no key or name is this long, and the
    /// work stays bounded whatever the file holds (a 3 MiB key took 31 s and 707 MB).
    static let maximumLength = 64

    static func suggestion(for name: String, among candidates: [String]) -> String? {
        guard name.utf8.count <= 4 * maximumLength, name.count <= maximumLength else { return nil }
        // Short names get no guesses beyond spelling variants: 'b' is not a typo of 'a'.
        let limit = min(3, name.count / 3)
        let lowercased = name.lowercased()
        var best: (candidate: String, distance: Int)?
        // Each edit changes the length by one at most: farther lengths cannot be close.
        for candidate in candidates where abs(candidate.count - name.count) <= limit {
            let distance = editDistance(lowercased, candidate.lowercased())
            if distance <= limit, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Edit distance counting a swap of neighbours as one edit (optimal string alignment),
    /// with `-` and `_` counted as the same character.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.replacing("-", with: "_")), b = Array(b.replacing("-", with: "_"))
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
