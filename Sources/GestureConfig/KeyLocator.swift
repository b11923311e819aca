/// Finds where each key of a TOML file is written (the values copied out of toml++ keep
/// no positions). It reads table headers (`[a.b]`, `[[a]]`) and `key =` lines and skips
/// values (strings, arrays and inline tables, over several lines if need be) without
/// reading them: it is not a TOML parser. Keys inside inline tables are not located;
/// `position(of:)` answers for them with the enclosing key.
struct KeyLocator {
    /// The most parts a dotted key or table name may have. The config's deepest path has 6
    /// (`gesture.NAME.on.STATE.command`); a bound keeps toml++'s nesting (which it frees
    /// recursively) and every walk over a path short.
    static let maximumKeyParts = 32

    /// The most keys and values a file may have (every key part, table header and array
    /// element counts): a 200-view kiosk has a few thousand. It bounds toml++'s tree and
    /// the values copied out of it, which a 4 MiB file of `[[a]]` lines would make 700,000.
    static let maximumItems = 65_536

    /// Every key path written, as a tree (node 0 is the root), so that a path of n parts
    /// costs n steps to record and to look up, never a copy of its prefix per part.
    private var nodes = [Node()]

    private struct Node {
        /// Where the path is first written (its own table header, when it has one).
        var position: SourcePosition?
        var hasHeader = false
        /// For an array of tables (`[[a]]`): how many elements so far.
        var arrayCount: Int?
        var children: [ConfigKeyPath.Segment: Int] = [:]
    }

    /// The first thing in the file that must never reach toml++: a table header whose name
    /// starts with a character no key can start with (`[=`, `[#`, `[` alone), on which
    /// toml++ asserts instead of reporting it (and assumes it away when built without
    /// assertions), or a key of more than `maximumKeyParts` parts.
    private(set) var refusal: (position: SourcePosition, message: String)?

    init(text: String) {
        var scanner = Scanner(scalars: Array(text.unicodeScalars))
        var table = 0
        // After a refusal nothing more is needed: the file is refused with it.
        while refusal == nil, let first = scanner.skipBlankAndComments() {
            if first == "[" {
                let isArrayTable = scanner.peek(1) == "["
                scanner.advance(isArrayTable ? 2 : 1)
                scanner.skipSpaces()
                let startsName = scanner.peek(0).map { Scanner.canStartKey($0) || $0 == "]" } ?? false
                if !startsName {
                    refuse(
                        at: SourcePosition(line: scanner.line, column: scanner.column),
                        "expected a table name after '[' (a bare key or a quoted one)")
                }
                let keys = readKeyPath(&scanner)
                table = 0
                for (index, (key, position)) in keys.enumerated() {
                    table = child(of: table, .key(key))
                    let isLast = index == keys.count - 1
                    if isLast && isArrayTable {
                        let count = nodes[table].arrayCount ?? 0
                        nodes[table].arrayCount = count + 1
                        record(table, at: position, isHeader: false)
                        table = child(of: table, .index(count))
                    } else if let count = nodes[table].arrayCount {
                        table = child(of: table, .index(count - 1))  // `[a.b]` after `[[a]]`: the last a
                    }
                    record(table, at: position, isHeader: isLast)
                }
                scanner.skipLine()
            } else {
                var node = table
                for (key, position) in readKeyPath(&scanner) {
                    node = child(of: node, .key(key))
                    record(node, at: position, isHeader: false)
                }
                if scanner.peek(0) == "=" {
                    scanner.advance(1)
                    if let position = scanner.skipValue() { refuseDepth(at: position) }
                } else {
                    scanner.skipLine()  // not a key line: not TOML, and the parser says so
                }
            }
            if let position = scanner.pastMaximumItems {
                refuse(at: position, "more than \(Self.maximumItems) keys and values in the file (the limit)")
            }
        }
    }

    /// Where `path` is written; for a key the locator cannot see (inside an inline table,
    /// or implied), its closest written ancestor; line 1 column 1 when none is.
    func position(of path: ConfigKeyPath) -> SourcePosition {
        var node = 0
        var position = SourcePosition(line: 1, column: 1)
        for segment in path.segments {
            guard let next = nodes[node].children[segment] else { break }
            node = next
            if let written = nodes[node].position { position = written }
        }
        return position
    }

    /// A key path, refused past `maximumKeyParts` parts (and read no further).
    private mutating func readKeyPath(_ scanner: inout Scanner) -> [(String, SourcePosition)] {
        let keys = scanner.readKeyPath(maximumParts: Self.maximumKeyParts + 1)
        if keys.count > Self.maximumKeyParts { refuseDepth(at: keys[Self.maximumKeyParts].1) }
        return keys
    }

    private mutating func refuseDepth(at position: SourcePosition) {
        refuse(at: position, "a dotted key or table name of more than \(Self.maximumKeyParts) parts (the limit)")
    }

    private mutating func refuse(at position: SourcePosition, _ message: String) {
        if refusal == nil { refusal = (position, message) }
    }

    private mutating func child(of node: Int, _ segment: ConfigKeyPath.Segment) -> Int {
        if let child = nodes[node].children[segment] { return child }
        nodes.append(Node())
        nodes[node].children[segment] = nodes.count - 1
        return nodes.count - 1
    }

    /// The first mention wins, except that a table's own header beats an earlier implied one.
    private mutating func record(_ node: Int, at position: SourcePosition, isHeader: Bool) {
        if isHeader, !nodes[node].hasHeader {
            nodes[node].hasHeader = true
            nodes[node].position = position
        } else if nodes[node].position == nil {
            nodes[node].position = position
        }
    }
}

/// A cursor over the file's Unicode scalars that knows lines and columns.
private struct Scanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var column = 1
    /// Key parts, arrays, inline tables and array elements seen (roughly: a bound, not a count).
    private var items = 0
    /// Where `items` passed `KeyLocator.maximumItems`.
    private(set) var pastMaximumItems: SourcePosition?

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

    mutating func countItem() {
        items += 1
        if items == KeyLocator.maximumItems + 1 { pastMaximumItems = SourcePosition(line: line, column: column) }
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
        c == "\"" || c == "'" || ConfigKeyPath.isBare(c)
    }

    /// `a.b."c d"`: each key with where it starts. Stops at `=`, `]`, the end of the line
    /// or after `maximumParts` parts.
    mutating func readKeyPath(maximumParts: Int) -> [(String, SourcePosition)] {
        var keys: [(String, SourcePosition)] = []
        while keys.count < maximumParts {
            skipSpaces()
            let position = SourcePosition(line: line, column: column)
            guard let c = peek(0) else { return keys }
            if c == "\"" || c == "'" {
                keys.append((readQuotedKey(quote: c), position))
            } else if Self.canStartKey(c) {
                let start = index
                while let c = peek(0), ConfigKeyPath.isBare(c) { advance(1) }
                var key = ""
                key.unicodeScalars.append(contentsOf: scalars[start..<index])
                keys.append((key, position))
            } else {
                return keys
            }
            countItem()
            skipSpaces()
            guard peek(0) == "." else { return keys }
            advance(1)
        }
        return keys
    }

    /// A quoted key, with basic strings' escapes (`\n`, `\t`, `\u0022`: names that the name
    /// rule refuses are located too).
    private mutating func readQuotedKey(quote: Unicode.Scalar) -> String {
        advance(1)
        var key = ""
        while let c = peek(0), c != quote, c != "\n" {
            if quote == "\"", c == "\\", let next = peek(1) {
                advance(2)
                switch next {
                case "n": key += "\n"
                case "t": key += "\t"
                case "r": key += "\r"
                case "b": key += "\u{8}"
                case "f": key += "\u{c}"
                case "e": key += "\u{1b}"
                case "u", "U":
                    let digits = next == "u" ? 4 : 8
                    let hex = String(String.UnicodeScalarView((0..<digits).compactMap { peek($0) }))
                    if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                        key.unicodeScalars.append(scalar)
                        advance(digits)
                    }
                default: key.unicodeScalars.append(next)
                }
            } else {
                key.unicodeScalars.append(c)
                advance(1)
            }
        }
        advance(1)
        return key
    }

    /// Skips one value: strings of the four kinds, and brackets across lines, up to the
    /// end of its line. Returns where a dotted key inside it (in an inline table) passes
    /// `KeyLocator.maximumKeyParts` parts: a run of that many dots outside strings with no
    /// `,`, `=` or bracket between them (no number or date has more than one).
    mutating func skipValue() -> SourcePosition? {
        var depth = 0
        var dots = 0
        while let c = peek(0) {
            switch c {
            case "\"", "'":
                skipString(quote: c)
            case "[", "{":
                depth += 1
                dots = 0
                countItem()
                advance(1)
            case "]", "}":
                depth -= 1
                dots = 0
                advance(1)
            case ",", "=":
                dots = 0
                if c == "," { countItem() }
                advance(1)
            case ".":
                dots += 1
                if dots == KeyLocator.maximumKeyParts { return SourcePosition(line: line, column: column) }
                advance(1)
            case "#":
                skipLine()
            case "\n":
                if depth <= 0 { return nil }
                dots = 0
                advance(1)
            default:
                advance(1)
            }
        }
        return nil
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
