import Foundation
import FoundationXML

/// An SVG file parsed back by a real XML parser, so tests check what a browser would see
/// (elements, attributes, text) rather than the writer's bytes.
final class SVGNode {
    let name: String
    let attributes: [String: String]
    var children: [SVGNode] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    subscript(_ key: String) -> String? { attributes[key] }

    /// A numeric attribute (nil when absent or not a number).
    func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }

    /// Every descendant, depth first, in document order.
    var descendants: [SVGNode] { children.flatMap { [$0] + $0.descendants } }

    /// Descendants whose `class` is `name`.
    func all(class name: String) -> [SVGNode] { descendants.filter { $0["class"] == name } }

    /// The `<title>` child's text, if any.
    var title: String? { children.first { $0.name == "title" }?.text }

    /// All text below this node, joined by newlines.
    var allText: String { ([text] + children.map(\.allText)).filter { !$0.isEmpty }.joined(separator: "\n") }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ text: String) throws -> SVGNode {
        let builder = Builder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw ParseError(
                description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?") "
                    + "at line \(parser.lineNumber), column \(parser.columnNumber)")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: SVGNode?
        var stack: [SVGNode] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let node = SVGNode(name: name, attributes: attributes)
            if let parent = stack.last { parent.children.append(node) } else { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
