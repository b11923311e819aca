extension SourcePosition {
    /// Where the first byte that is not UTF-8 lies in `bytes`, and that byte: a config
    /// with one gets its line:col like any other syntax error.
    package static func firstInvalidUTF8(in bytes: [UInt8]) -> (position: SourcePosition, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        var position = SourcePosition(line: 1, column: 1)
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                offset += encoded.count
                position.advance(over: encoded.first == UInt8(ascii: "\n"))
            case .error:
                return (position, bytes[offset])
            case .emptyInput:
                return nil
            }
        }
    }

    /// The position of `index` in `text`: counted in lines and Unicode scalars.
    package static func of(_ index: String.UnicodeScalarView.Index, in text: String) -> SourcePosition {
        var position = SourcePosition(line: 1, column: 1)
        for scalar in text.unicodeScalars[..<index] { position.advance(over: scalar == "\n") }
        return position
    }

    private mutating func advance(over isNewline: Bool) {
        if isNewline {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }
}
