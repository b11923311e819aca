/// A line and column in a config file, both counted from 1 (columns in Unicode scalars).
public struct SourcePosition: Equatable, Comparable, Sendable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// One problem in a config file, printable as `file:line:col: error: key.path: message`.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible, Error {
    public var location: ConfigLocation
    public var keyPath: ConfigKeyPath
    /// What the key wants ("a duration such as \"300ms\""), when the problem is a value.
    public var expected: String?
    /// What the file has, as written (`"-5ms"`, `integer 3`).
    public var found: String?
    /// The problem in words, without the expected/found part.
    public var message: String
    /// A close valid name for a misspelt one.
    public var didYouMean: String?
    /// The later file's key that made this problem of an earlier file's key (a drop-in's
    /// `type = "tap"` under the main file's long-press keys); nil when the files up to
    /// `location`'s have it already. The diagnostic is shown at the cause.
    public var cause: Cause?

    /// A key a later file (a drop-in) set, and the value it replaced.
    public struct Cause: Equatable, Sendable {
        public var location: ConfigLocation
        public var keyPath: ConfigKeyPath
        /// Where the value it replaced was written; nil when no earlier file set the key.
        public var replaced: ConfigLocation?

        public init(location: ConfigLocation, keyPath: ConfigKeyPath, replaced: ConfigLocation?) {
            self.location = location
            self.keyPath = keyPath
            self.replaced = replaced
        }
    }

    public init(
        location: ConfigLocation, keyPath: ConfigKeyPath, message: String,
        expected: String? = nil, found: String? = nil, didYouMean: String? = nil
    ) {
        self.location = location
        self.keyPath = keyPath
        self.message = message
        self.expected = expected
        self.found = found
        self.didYouMean = didYouMean
    }

    /// Where the diagnostic is shown: the cause's line when a later file caused it (the
    /// file the operator changed), else the problem's own.
    public var shownLocation: ConfigLocation { cause?.location ?? location }

    /// Names, keys and values longer than this are shown shortened, with their length.
    static let maximumShownLength = 64

    /// How a name, key or string value from the file appears in a message: on one line
    /// (control characters escaped as TOML writes them: `\n`, `\t`, `\u007F`), and when it is
    /// longer than `maximumShownLength`, its first 32 characters and its length (a 3 MiB key
    /// was printed twice in full). With `quoted`, `"` and `\` are escaped too, for a quoted key.
    package static func shown(_ text: String, quoted: Bool = false) -> String {
        let isLong = text.utf8.count > maximumShownLength && text.count > maximumShownLength
        var shown = ""
        for scalar in (isLong ? Substring(text.prefix(32)) : Substring(text)).unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            case "\"" where quoted: shown += "\\\""
            case "\\" where quoted: shown += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f: shown += "\\u" + hex4(scalar.value)
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return isLong ? shown + "... (\(text.count) characters)" : shown
    }

    /// Four upper-case hex digits.
    package static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The message with expected, found and did-you-mean spelled out.
    public var fullMessage: String {
        var text = message
        if let expected { text += ": expected \(expected)" }
        if let found { text += expected == nil ? ": found \(found)" : ", found \(found)" }
        if let didYouMean { text += " (did you mean '\(didYouMean)'?)" }
        return text
    }

    public var description: String {
        if let cause {
            let replaced = cause.replaced.map { ", replacing the value at \($0)," } ?? ""
            return "\(cause.location): error: \(cause.keyPath): set here\(replaced) it breaks \(keyPath) at \(location): \(fullMessage)"
        }
        // Syntax errors have no key path: toml++ does not say which key it was reading.
        let path = keyPath.segments.isEmpty ? "" : "\(keyPath): "
        return "\(location): error: \(path)\(fullMessage)"
    }
}

/// Why a config file was not loaded.
public enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read: the path and `strerror` text.
    case unreadable(path: String, reason: String)
    /// The file is not valid TOML: the first syntax error, at toml++'s line and column.
    case syntax(Diagnostic)
    /// The files are valid TOML but not a valid config: every problem found, in file order.
    case invalid([Diagnostic])
    /// A drop-in directory could not be read, or holds too many files: the path and why.
    case dropIns(path: String, reason: String)
    /// The daemon runs as root and the file could be changed by someone else (see `ConfigFileSafety`).
    case unsafe(path: String, reason: String)

    /// The files to fix: where each diagnostic is shown, in order, each once; the path
    /// of an unreadable or unsafe file or of a drop-in directory.
    public var files: [String] {
        switch self {
        case .unreadable(let path, _), .unsafe(let path, _), .dropIns(let path, _): [path]
        case .syntax, .invalid:
            diagnostics.map(\.shownLocation).sorted().reduce(into: [String]()) { files, location in
                if !files.contains(location.file) { files.append(location.file) }
            }
        }
    }

    /// Every diagnostic carried (empty for unreadable and unsafe files).
    public var diagnostics: [Diagnostic] {
        switch self {
        case .syntax(let diagnostic): [diagnostic]
        case .invalid(let diagnostics): diagnostics
        case .unreadable, .unsafe, .dropIns: []
        }
    }

    /// One line per problem.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): error: cannot read the config file: \(reason)"
        case .syntax(let diagnostic): diagnostic.description
        case .invalid(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
        case .unsafe(let path, let reason): "\(path): error: refusing to load the config file: \(reason)"
        case .dropIns(let path, let reason): "\(path): error: \(reason)"
        }
    }
}
