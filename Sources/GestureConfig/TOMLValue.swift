import CTOMLPlusPlus

/// A TOML value copied out of toml++'s parse, which is freed before `parse` returns: a
/// reload keeps nothing of the parser's memory.
enum TOMLValue: Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case table(TOMLTable)
    case array([TOMLValue])
    /// A date, a time or a date-time: no config key takes one.
    case dateTime

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var int: Int? { if case .integer(let value) = self { value } else { nil } }
    var double: Double? { if case .float(let value) = self { value } else { nil } }
    var bool: Bool? { if case .boolean(let value) = self { value } else { nil } }
    var table: TOMLTable? { if case .table(let value) = self { value } else { nil } }
    var array: [TOMLValue]? { if case .array(let value) = self { value } else { nil } }
}

/// A TOML table: its keys in toml++'s order (sorted; keys a later file adds come after
/// them), and their values.
struct TOMLTable: Equatable {
    private(set) var keys: [String]
    private var values: [String: TOMLValue]

    subscript(key: String) -> TOMLValue? { values[key] }

    /// Sets `key`; a new key comes after the others.
    mutating func set(_ key: String, _ value: TOMLValue) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }

    func contains(key: String) -> Bool { values[key] != nil }

    /// A TOML syntax error: toml++'s description and where it begins.
    struct SyntaxError: Error {
        var message: String
        var position: SourcePosition
    }

    /// Parses a whole document with toml++.
    static func parse(_ text: String) throws(SyntaxError) -> TOMLTable {
        var text = text
        let document = text.withUTF8 { ctoml_parse($0.baseAddress, $0.count) }
        defer { ctoml_document_free(document) }
        var line: UInt32 = 0
        var column: UInt32 = 0
        if let error = ctoml_document_error(document, &line, &column) {
            throw SyntaxError(
                message: String(cString: error),
                position: SourcePosition(line: Int(line), column: Int(column)))
        }
        var count = 0
        guard let values = ctoml_document_values(document, &count) else { return TOMLTable(keys: [], values: [:]) }
        var reader = Reader(values: UnsafeBufferPointer(start: values, count: count))
        return reader.table(count: values.pointee.count)
    }

    /// Reads the pre-order array of `CTOMLPlusPlus.h` back into a tree.
    private struct Reader {
        let values: UnsafeBufferPointer<ctoml_value>
        var next = 1  // after the root table

        mutating func table(count: Int) -> TOMLTable {
            var keys: [String] = []
            var members: [String: TOMLValue] = [:]
            keys.reserveCapacity(count)
            for _ in 0..<count {
                let key = Self.text(values[next].key, values[next].key_length)
                keys.append(key)
                members[key] = value()
            }
            return TOMLTable(keys: keys, values: members)
        }

        mutating func value() -> TOMLValue {
            let raw = values[next]
            next += 1
            switch raw.type {
            case CTOML_TABLE: return .table(table(count: raw.count))
            case CTOML_ARRAY: return .array((0..<raw.count).map { _ in value() })
            case CTOML_STRING: return .string(Self.text(raw.string, raw.string_length))
            case CTOML_INTEGER: return .integer(Int(raw.integer))
            case CTOML_FLOAT: return .float(raw.floating)
            case CTOML_BOOLEAN: return .boolean(raw.boolean)
            default: return .dateTime
            }
        }

        static func text(_ bytes: UnsafePointer<CChar>?, _ count: Int) -> String {
            guard let bytes else { return "" }
            return bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
        }
    }
}
