/// Shell-style match of `name` against `pattern` with `*` (any run) and `?` (one character),
/// as device predicates use it.
public func globMatches(_ pattern: String, _ name: String) -> Bool {
    let p = Array(pattern)
    let n = Array(name)
    var pi = 0
    var ni = 0
    var star = -1
    var resume = 0
    while ni < n.count {
        if pi < p.count, p[pi] == "?" || p[pi] == n[ni] {
            pi += 1
            ni += 1
        } else if pi < p.count, p[pi] == "*" {
            star = pi
            resume = ni
            pi += 1
        } else if star >= 0 {
            pi = star + 1
            resume += 1
            ni = resume
        } else {
            return false
        }
    }
    while pi < p.count, p[pi] == "*" { pi += 1 }
    return pi == p.count
}

/// True when `patterns` is empty or one of them matches `name`.
func anyGlobMatches(_ patterns: [String], _ name: String) -> Bool {
    patterns.isEmpty || patterns.contains { globMatches($0, name) }
}
