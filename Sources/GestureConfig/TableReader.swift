import GestureCore

/// Reads the keys of one TOML table with their types and units, reporting each problem to
/// the sink and going on (every problem in one pass). The keys asked for are the table's
/// schema: `finish()` reports the others as unknown, with a did-you-mean among them.
final class TableReader {
    let table: TOMLTable
    let path: ConfigKeyPath
    let sink: DiagnosticSink
    private var known: [String] = []

    init(table: TOMLTable, path: ConfigKeyPath, sink: DiagnosticSink) {
        self.table = table
        self.path = path
        self.sink = sink
    }

    /// A problem with a value that is not a TOML type mismatch.
    struct Problem: Error {
        var message: String
        var expected: String?
        /// The value as the message should show it, when not as `render` does.
        var found: String?
    }

    /// The raw value of `key`, marking the key as known.
    func value(_ key: String) -> TOMLValue? {
        known.append(key)
        sink.noteRead(key)
        return table[key]
    }

    func contains(_ key: String) -> Bool { table.contains(key: key) }

    /// Reads `key` with `convert`; nil (and a problem reported, unless absent) when it fails.
    /// `convert` returns nil for a value of the wrong kind, or throws a more precise `Problem`.
    func read<T>(
        _ key: String, expected: String,
        _ convert: (TOMLValue) throws(Problem) -> T?
    ) -> T? {
        guard let value = value(key) else { return nil }
        do {
            if let result = try convert(value) { return result }
            sink.report(path.appending(key), "wrong type", expected: expected, found: Self.render(value))
        } catch {
            sink.report(
                path.appending(key), error.message, expected: error.expected ?? expected,
                found: error.found ?? Self.render(value))
        }
        return nil
    }

    func string(_ key: String) -> String? {
        read(key, expected: "a string") { $0.string }
    }

    func bool(_ key: String) -> Bool? {
        read(key, expected: "true or false") { $0.bool }
    }

    func int(_ key: String, in range: ClosedRange<Int>, expected: String) -> Int? {
        read(key, expected: expected) { value throws(Problem) in
            guard let int = value.int else { return nil }
            guard range.contains(int) else { throw Problem(message: "out of range") }
            return int
        }
    }

    /// A number of px: a bare number (integer or float) or `"40px"`.
    func pixels(_ key: String) -> Double? {
        read(key, expected: "px (a number or \"40px\")") { value throws(Problem) in
            if let number = Self.number(value) { return number }
            guard let text = value.string else { return nil }
            guard case .pixels(let px)? = Units.frameLength(text) else {
                throw Problem(message: "not a length in px")
            }
            return px
        }
    }

    /// A unit-bearing string parsed by `parse`; bare numbers are refused as ambiguous.
    func quantity<T>(_ key: String, expected: String, parse: (String) -> T?, isNegative: (T) -> Bool) -> T? {
        guard let value = value(key) else { return nil }
        guard let text = value.string else {
            let message = Self.number(value) == nil ? "wrong type" : "a number needs a unit here"
            sink.report(path.appending(key), message, expected: expected, found: Self.render(value))
            return nil
        }
        guard let result = parse(text) else {
            sink.report(
                path.appending(key), "unknown unit or malformed number", expected: expected,
                found: Self.render(value))
            return nil
        }
        if isNegative(result) {
            sink.report(path.appending(key), "must not be negative", expected: expected, found: Self.render(value))
            return nil
        }
        return result
    }

    func duration(_ key: String) -> Microseconds? {
        quantity(key, expected: Units.durationExpected, parse: Units.duration) { $0 < 0 }
    }

    func length(_ key: String) -> Length? {
        quantity(key, expected: Units.lengthExpected, parse: Units.length) { length in
            switch length {
            case .millimeters(let v), .points(let v), .pixels(let v): v < 0
            }
        }
    }

    func angle(_ key: String) -> Double? {
        quantity(key, expected: Units.angleExpected, parse: Units.angle) { $0 < 0 }
    }

    /// mm/s: `"50mm/s"` or a bare number (documented as mm/s).
    func speed(_ key: String) -> Double? {
        if let value = table[key], let number = Self.number(value) {
            known.append(key)
            guard number >= 0 else {
                sink.report(
                    path.appending(key), "must not be negative", expected: Units.speedExpected,
                    found: Self.render(value))
                return nil
            }
            return number
        }
        return quantity(key, expected: Units.speedExpected, parse: Units.speed) { $0 < 0 }
    }

    /// An array of strings. A single string is read as the one-element array, with a warning
    /// that shows the array form (every list key is documented as an array).
    func strings(_ key: String, expected: String = "an array of strings") -> [String]? {
        read(key, expected: expected) { value in
            if let string = value.string {
                sink.warn(
                    path.appending(key),
                    "a string where an array is expected, read as an array of one: write \(key) = [\"\(Diagnostic.shown(string, quoted: true))\"]"
                )
                return [string]
            }
            guard let array = value.array else { return nil }
            var strings: [String] = []
            for element in array {
                guard let string = element.string else { return nil }
                strings.append(string)
            }
            return strings
        }
    }

    /// A sub-table (`[a.b]` or `b = { ... }`).
    func table(_ key: String) -> TableReader? {
        read(key, expected: "a table") { value in
            value.table.map { TableReader(table: $0, path: path.appending(key), sink: sink) }
        }
    }

    /// Reports every key that was never asked for. `explain` may give a better message for
    /// a key known elsewhere (a parameter of another gesture type, say).
    func finish(explain: (String) -> String? = { _ in nil }) {
        for key in table.keys where !known.contains(key) {
            if let explanation = explain(key) {
                sink.report(path.appending(key), explanation)
            } else {
                sink.report(
                    path.appending(key), "unknown key '\(Diagnostic.shown(key))'",
                    didYouMean: DidYouMean.suggestion(for: key, among: known))
            }
        }
    }

    static func number(_ value: TOMLValue) -> Double? {
        value.int.map(Double.init) ?? value.double
    }

    /// A value as the user wrote it, for "found ...".
    static func render(_ value: TOMLValue) -> String {
        switch value {
        case .string(let string): "\"\(Diagnostic.shown(string))\""
        case .integer(let int): "\(int)"
        case .float(let double): "\(double)"
        case .boolean(let bool): bool ? "true" : "false"
        case .table: "a table"
        case .array: "an array"
        case .dateTime: "a date or time"
        }
    }
}
