/// Finds where each key of a TOML file is written (the values copied out of toml++ keep
/// no positions). It reads table headers (`[a.b]`, `[[a]]`) and `key =` lines and skips
/// values (strings, arrays and inline tables, over several lines if need be) without
/// reading them: it is not a TOML parser. Keys inside inline tables are not located;
/// `position(of:)` answers for them with the enclosing key.
struct KeyLocator {
    private var positions: [ConfigKeyPath: SourcePosition] = [:]

    /// The first table header whose name starts with a character no key can start with
    /// (`[=`, `[#`, `[` alone). toml++ asserts on these instead of reporting them (and
    /// assumes them away when built without assertions), so they must never reach it.
    private(set) var malformedHeader: SourcePosition?

    init(text: String) {
        var scanner = Scanner(scalars: Array(text.unicodeScalars))
        var table = ConfigKeyPath()
        var arrayTableCounts: [ConfigKeyPath: Int] = [:]
        while let first = scanner.skipBlankAndComments() {
            if first == "[" {
                let isArrayTable = scanner.peek(1) == "["
                scanner.advance(isArrayTable ? 2 : 1)
                scanner.skipSpaces()
                let startsName = scanner.peek(0).map { Scanner.canStartKey($0) || $0 == "]" } ?? false
                if malformedHeader == nil, !startsName {
                    malformedHeader = SourcePosition(line: scanner.line, column: scanner.column)
                }
                let keys = scanner.readKeyPath()
                table = ConfigKeyPath()
                for (index, (key, position)) in keys.enumerated() {
                    table = table.appending(key)
                    let isLast = index == keys.count - 1
                    if isLast && isArrayTable {
                        let count = arrayTableCounts[table, default: 0]
                        arrayTableCounts[table] = count + 1
                        record(table, at: position, explicit: false)
                        table = table.appending(index: count)
                    } else if let count = arrayTableCounts[table] {
                        table = table.appending(index: count - 1) // `[a.b]` after `[[a]]`: the last a
                    }
                    record(table, at: position, explicit: isLast)
                }
                scanner.skipLine()
            } else {
                let keys = scanner.readKeyPath()
                var path = table
                for (key, position) in keys {
                    path = path.appending(key)
                    record(path, at: position, explicit: false)
                }
                if scanner.peek(0) == "=" {
                    scanner.advance(1)
                    scanner.skipValue()
                } else {
                    scanner.skipLine() // not a key line: not TOML, and the parser says so
                }
            }
        }
    }

    /// Where `path` is written; for a key the locator cannot see (inside an inline table,
    /// or implied), its closest written ancestor; line 1 column 1 when none is.
    func position(of path: ConfigKeyPath) -> SourcePosition {
        var path = path
        while !path.segments.isEmpty {
            if let position = positions[path] { return position }
            path = path.parent
        }
        return SourcePosition(line: 1, column: 1)
    }

    /// The first mention wins, except that a table's own header beats an earlier implied one.
    private mutating func record(_ path: ConfigKeyPath, at position: SourcePosition, explicit: Bool) {
        if explicit, explicitHeaders.insert(path).inserted {
            positions[path] = position
        } else if positions[path] == nil {
            positions[path] = position
        }
    }

    private var explicitHeaders: Set<ConfigKeyPath> = []
}

/// A cursor over the file's Unicode scalars that knows lines and columns.
private struct Scanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var column = 1

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        let i = index + offset
        return i < scalars.count ? scalars[i] : nil
    }

    mutating func advance(_ count: Int) {
        for _ in 0..<count where index < scalars.count {
            if scalars[index] == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
    }

    mutating func skipSpaces() {
        while let c = peek(0), c == " " || c == "\t" { advance(1) }
    }

    mutating func skipLine() {
        while let c = peek(0), c != "\n" { advance(1) }
    }

    /// Skips whitespace, newlines and comments; returns the next scalar (nil at the end).
    mutating func skipBlankAndComments() -> Unicode.Scalar? {
        while let c = peek(0) {
            switch c {
            case " ", "\t", "\r", "\n": advance(1)
            case "#": skipLine()
            default: return c
            }
        }
        return nil
    }

    /// A bare key character or a quote.
    static func canStartKey(_ c: Unicode.Scalar) -> Bool {
        c == "\"" || c == "'" || ConfigKeyPath.isBare(String(Character(c)))
    }

    /// `a.b."c d"`: each key with where it starts. Stops at `=`, `]` or the end of the line.
    mutating func readKeyPath() -> [(String, SourcePosition)] {
        var keys: [(String, SourcePosition)] = []
        while true {
            skipSpaces()
            let position = SourcePosition(line: line, column: column)
            guard let c = peek(0) else { return keys }
            if c == "\"" || c == "'" {
                keys.append((readQuotedKey(quote: c), position))
            } else if Self.canStartKey(c) {
                var key = ""
                while let c = peek(0), ConfigKeyPath.isBare(String(Character(c))) {
                    key.unicodeScalars.append(c)
                    advance(1)
                }
                keys.append((key, position))
            } else {
                return keys
            }
            skipSpaces()
            guard peek(0) == "." else { return keys }
            advance(1)
        }
    }

    /// A quoted key; basic strings' escapes are kept as written except `\"` and `\\`
    /// (keys with other escapes are rare enough to be located by their table instead).
    private mutating func readQuotedKey(quote: Unicode.Scalar) -> String {
        advance(1)
        var key = ""
        while let c = peek(0), c != quote, c != "\n" {
            if quote == "\"", c == "\\", let next = peek(1) {
                key.unicodeScalars.append(next)
                advance(2)
            } else {
                key.unicodeScalars.append(c)
                advance(1)
            }
        }
        advance(1)
        return key
    }

    /// Skips one value: strings of the four kinds, and brackets across lines, up to the
    /// end of its line.
    mutating func skipValue() {
        var depth = 0
        while let c = peek(0) {
            switch c {
            case "\"", "'":
                skipString(quote: c)
            case "[", "{":
                depth += 1
                advance(1)
            case "]", "}":
                depth -= 1
                advance(1)
            case "#":
                skipLine()
            case "\n":
                if depth <= 0 { return }
                advance(1)
            default:
                advance(1)
            }
        }
    }

    private mutating func skipString(quote: Unicode.Scalar) {
        let isMultiline = peek(1) == quote && peek(2) == quote
        advance(isMultiline ? 3 : 1)
        while let c = peek(0) {
            if c == "\\" && quote == "\"" {
                advance(2)
            } else if c == quote && (!isMultiline || peek(1) == quote && peek(2) == quote) {
                advance(isMultiline ? 3 : 1)
                // A multi-line string may end with up to two more quotes (`""""`).
                while isMultiline, peek(0) == quote { advance(1) }
                return
            } else if c == "\n" && !isMultiline {
                return
            } else {
                advance(1)
            }
        }
    }
}
