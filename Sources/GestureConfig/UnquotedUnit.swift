/// A number written with its unit but without quotes (`height = 1080px`, `max_duration =
/// 300ms`): TOML refuses it with "expected digit, saw 'p'", which does not say the fix.
/// Units are strings in gestured's config, so the hint is the quoted form.
enum UnquotedUnit {
    /// The hint for a syntax error at `position` of `text`, when the value there is a number
    /// followed by a unit: `(a value with a unit is a string: write height = "1080px")`.
    static func hint(in text: String, at position: SourcePosition) -> String? {
        guard let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(position.line - 1).first
        else { return nil }
        let scalars = Array(line.unicodeScalars)
        let column = min(max(position.column - 1, 0), scalars.count)
        // The last `key =` before the error, and the value after it up to a delimiter.
        guard let equals = scalars[..<column].lastIndex(of: "=") else { return nil }
        let isKey: (Unicode.Scalar) -> Bool = { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
        let keyEnd = scalars[..<equals].lastIndex { $0 != " " && $0 != "\t" }.map { $0 + 1 } ?? 0
        let keyStart = scalars[..<keyEnd].lastIndex { !isKey($0) }.map { $0 + 1 } ?? 0
        guard keyStart < keyEnd else { return nil }
        let valueStart = scalars[(equals + 1)...].firstIndex { $0 != " " && $0 != "\t" } ?? scalars.count
        let valueEnd = scalars[valueStart...].firstIndex { " \t,}]#".unicodeScalars.contains($0) } ?? scalars.count
        let value = String(String.UnicodeScalarView(scalars[valueStart..<valueEnd]))
        guard isNumberWithUnit(value) else { return nil }
        let key = String(String.UnicodeScalarView(scalars[keyStart..<keyEnd]))
        return "(a value with a unit is a string: write \(key) = \"\(value)\")"
    }

    /// `1080px`, `-5ms`, `0.5s`, `25%`, `50mm/s`: digits (with a sign, a point), then letters,
    /// `%` or `/`.
    private static func isNumberWithUnit(_ value: String) -> Bool {
        var rest = Substring(value)
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "_") }
        let unit = rest.dropFirst(number.count)
        return number.contains { $0.isNumber } && !unit.isEmpty && unit.count <= 8
            && unit.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "%" || $0 == "/") }
    }
}
