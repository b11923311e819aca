import CYAML
import TouchInput

/// A YAML document as libyaml's loader builds it (Debian's libyaml, as `libyaml-dev`
/// provides it): its nodes read in place, freed with the document. Aliases are resolved
/// by the loader; scalars are read as text, and as integers only when plain (unquoted).
final class YAMLDocument {
    private var document: yaml_document_t

    /// Parses the first document of `text`; a syntax error is libyaml's message at its line.
    init(_ text: String, path: String, lines: [Substring]) throws(EvemuError) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            throw EvemuError(path: path, line: 0, problem: "cannot start the YAML parser (out of memory)", text: "")
        }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        var document = yaml_document_t()
        // On an error, libyaml frees what it had loaded.
        let ok = bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return yaml_parser_load(&parser, &document) != 0
        }
        guard ok else {
            let line = Int(parser.problem_mark.line) + 1
            let context = parser.context.map { String(cString: $0) + ", " } ?? ""
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
            let source = line <= lines.count ? String(lines[line - 1]).trimmingSpaces : ""
            throw EvemuError(path: path, line: line, problem: "not valid YAML: " + context + problem, text: source)
        }
        self.document = document
        if let (key, duplicate) = firstDuplicateKey() {
            throw EvemuError(
                path: path, line: key.line, problem: "duplicated key '\(duplicate)' in a mapping",
                text: key.line <= lines.count ? String(lines[key.line - 1]).trimmingSpaces : "")
        }
    }

    /// A key that a mapping has twice (the second of them), which YAML does not allow.
    private func firstDuplicateKey() -> (YAMLNode, String)? {
        for index in 1..<Int32(document.nodes.top - document.nodes.start) + 1 {
            guard let pairs = YAMLNode(document: self, index: index).mapping else { continue }
            var seen: Set<String> = []
            for pair in pairs {
                guard let key = pair.key.string else { continue }
                if !seen.insert(key).inserted { return (pair.key, key) }
            }
        }
        return nil
    }

    deinit { yaml_document_delete(&document) }

    /// The root node; nil for an empty file.
    var root: YAMLNode? {
        guard document.nodes.start != document.nodes.top else { return nil }
        return YAMLNode(document: self, index: 1)
    }

    fileprivate func node(_ index: Int32) -> UnsafeMutablePointer<yaml_node_t> {
        document.nodes.start + Int(index - 1)
    }
}

/// One node of a `YAMLDocument` (which it keeps alive).
struct YAMLNode {
    fileprivate let document: YAMLDocument
    fileprivate let index: Int32

    private var node: UnsafeMutablePointer<yaml_node_t> { document.node(index) }

    /// The line it starts on, from 1.
    var line: Int { Int(node.pointee.start_mark.line) + 1 }

    /// A scalar's text; nil for a sequence or a mapping.
    var string: String? {
        guard node.pointee.type == YAML_SCALAR_NODE else { return nil }
        let scalar = node.pointee.data.scalar
        return String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
    }

    /// A plain scalar written as a decimal (or `0x` hexadecimal) integer.
    var int: Int? {
        guard node.pointee.type == YAML_SCALAR_NODE, node.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE,
            let whole = string
        else { return nil }
        var text = whole[...]
        let negative = text.first == "-"
        if negative || text.first == "+" { text = text.dropFirst() }
        guard text.first?.isNumber == true else { return nil }
        let magnitude = text.hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text, radix: 10)
        return magnitude.map { negative ? -$0 : $0 }
    }

    /// A sequence's items; nil for a scalar or a mapping.
    var sequence: [YAMLNode]? {
        guard node.pointee.type == YAML_SEQUENCE_NODE else { return nil }
        let items = node.pointee.data.sequence.items
        return UnsafeBufferPointer(start: items.start, count: items.top - items.start).map {
            YAMLNode(document: document, index: $0)
        }
    }

    /// A mapping's pairs in file order; nil for a scalar or a sequence.
    var mapping: [(key: YAMLNode, value: YAMLNode)]? {
        guard node.pointee.type == YAML_MAPPING_NODE else { return nil }
        let pairs = node.pointee.data.mapping.pairs
        return UnsafeBufferPointer(start: pairs.start, count: pairs.top - pairs.start).map {
            (YAMLNode(document: document, index: $0.key), YAMLNode(document: document, index: $0.value))
        }
    }

    /// A mapping's value under the scalar key `key`.
    subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.string == key }?.value
    }
}
