extension MessageTemplate {
    /// Why a message template was refused.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownField(String, didYouMean: String?)
        case unclosedBrace
        case emptyField

        public var description: String {
            switch self {
            case .unknownField(let name, _): "unknown placeholder '{\(name)}'"
            case .unclosedBrace: "'{' without a closing '}' (write '{{' for a literal brace)"
            case .emptyField: "empty placeholder '{}'"
            }
        }
    }

    /// Parses `"{gesture} at {x},{y}"`. Placeholders must be among `names` (the event
    /// JSON's field names unless said); `{{` and `}}` stand for literal braces.
    public init(parsing text: String, among names: [String] = fieldNames) throws(ParseError) {
        var segments: [Segment] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            let next = text.index(after: index)
            if c == "{" || c == "}", next < text.endIndex, text[next] == c {
                literal.append(c)
                index = text.index(after: next)
                continue
            }
            guard c == "{" else {
                literal.append(c)
                index = next
                continue
            }
            guard let close = text[next...].firstIndex(of: "}") else { throw .unclosedBrace }
            let name = String(text[next..<close])
            guard !name.isEmpty else { throw .emptyField }
            guard names.contains(name) else {
                throw .unknownField(name, didYouMean: DidYouMean.suggestion(for: name, among: names))
            }
            if !literal.isEmpty { segments.append(.text(literal)) }
            literal = ""
            segments.append(.field(name))
            index = text.index(after: close)
        }
        if !literal.isEmpty { segments.append(.text(literal)) }
        self.init(segments: segments)
    }

    /// The environment variable a command action receives a field in: `x` -> `GESTURE_X`,
    /// with `gesture` -> `GESTURE_NAME` and `t` -> `GESTURE_TIME` (as the dispatcher sets them).
    /// Commands get values this way only, never spliced into the shell string.
    public static func environmentName(for field: String) -> String {
        switch field {
        case "gesture": "GESTURE_NAME"
        case "t": "GESTURE_TIME"
        default: "GESTURE_" + field.uppercased()
        }
    }

    /// The event fields that a command string names as `{field}`, which commands do not
    /// expand (values arrive in the environment instead). `${x}` is the shell's own and allowed.
    package static func placeholders(inCommand command: String, among names: [String] = fieldNames) -> [String] {
        var found: [String] = []
        var rest = command[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest.index(after: open)
            guard let close = rest[after...].firstIndex(of: "}") else { break }
            let name = String(rest[after..<close])
            let isShellExpansion = open > command.startIndex && command[command.index(before: open)] == "$"
            if !isShellExpansion, names.contains(name) { found.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return found
    }
}
