extension ConfigBuilder {
    /// The longest view or gesture name.
    static let maximumNameLength = 64

    /// What a view or gesture name may hold: TOML's bare-key characters. Names travel in
    /// event JSON, socket messages (`{view}`, `{gesture}`), environment values and logs,
    /// so none may carry a quote, a backslash, a space, a newline or any other control
    /// character that could split or forge a line.
    static let nameExpected = "a name of ASCII letters, digits, '_' and '-', at most 64 characters"

    /// Reports a view or gesture name (`kind`) that breaks the name rule: the first
    /// offending character and its column in the name, or its length.
    func checkName(_ name: String, kind: String, path: ConfigKeyPath) {
        if let (offset, scalar) = name.unicodeScalars.enumerated().first(where: { !ConfigKeyPath.isBare($0.element) }) {
            sink.report(
                path, "\(kind) name with \(Self.describe(scalar)) at column \(offset + 1) of the name",
                expected: Self.nameExpected)
        } else if name.isEmpty || name.unicodeScalars.count > Self.maximumNameLength {
            sink.report(path, "\(kind) name of \(name.unicodeScalars.count) characters", expected: Self.nameExpected)
        }
    }

    /// A character for a message: `'"'`, `a space`, `a newline (U+000A)`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case " ": "a space"
        case "\n": "a newline (U+000A)"
        case "\t": "a tab (U+0009)"
        case _ where scalar.value < 0x20 || scalar.value == 0x7f: "a control character (U+\(Diagnostic.hex4(scalar.value)))"
        case _ where scalar.isASCII: "'\(scalar)'"
        default: "'\(scalar)' (U+\(Diagnostic.hex4(scalar.value)))"
        }
    }
}
