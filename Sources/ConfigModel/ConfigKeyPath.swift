/// Where a value sits in the config: `gesture.wake.on.recognized`, `device[1].rotation`.
public struct ConfigKeyPath: Hashable, Sendable, CustomStringConvertible {
    public enum Segment: Hashable, Sendable {
        case key(String)
        /// The position in an array of tables (`[[device]]`) or in an array value.
        case index(Int)
    }

    public var segments: [Segment]

    public init(_ segments: [Segment] = []) { self.segments = segments }

    /// A path of plain keys: `ConfigKeyPath(keys: "gesture", "wake")`.
    public init(keys: String...) { self.segments = keys.map(Segment.key) }

    public func appending(_ key: String) -> ConfigKeyPath { ConfigKeyPath(segments + [.key(key)]) }
    public func appending(index: Int) -> ConfigKeyPath { ConfigKeyPath(segments + [.index(index)]) }

    /// The path without its last segment (the root's parent is the root).
    public var parent: ConfigKeyPath { ConfigKeyPath(Array(segments.dropLast())) }

    /// Dotted form; keys that are not bare TOML keys are quoted, indices in brackets.
    public var description: String {
        var text = ""
        for segment in segments {
            switch segment {
            case .key(let key):
                if !text.isEmpty { text += "." }
                if Self.isBare(key), key.utf8.count <= Diagnostic.maximumShownLength {
                    text += key
                } else {
                    // Escaped as in a TOML basic string, so a key path is always one line.
                    text += "\"" + Diagnostic.shown(key, quoted: true) + "\""
                }
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// TOML bare keys: ASCII letters, digits, `_` and `-`.
    package static func isBare(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy(isBare)
    }

    package static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
        default: false
        }
    }
}
