/// An SVG document written as text: elements appended in drawing order (later ones on
/// top), attribute values and text escaped. No DOM: a picture is written once, front to back.
public struct SVGDocument {
    public let width: Double
    public let height: Double
    private var body: [String] = []
    private var depth = 1

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// An element without children: `<name a="v" .../>`, or with `text` as its content
    /// (and `title` as a hover text child).
    public mutating func element(
        _ name: String, _ attributes: KeyValuePairs<String, SVGValue>,
        text: String? = nil, title: String? = nil
    ) {
        let open = "<" + name + Self.attributes(attributes)
        if text == nil, title == nil {
            line(open + "/>")
            return
        }
        line(
            open + ">" + (title.map { "<title>" + Self.escape($0) + "</title>" } ?? "")
                + Self.escape(text ?? "") + "</" + name + ">")
    }

    /// A group around what `content` draws: `<g ...>...</g>`, with an optional hover title.
    public mutating func group(
        _ attributes: KeyValuePairs<String, SVGValue>, title: String? = nil,
        _ content: (inout SVGDocument) -> Void
    ) {
        line("<g" + Self.attributes(attributes) + ">")
        depth += 1
        if let title { line("<title>" + Self.escape(title) + "</title>") }
        content(&self)
        depth -= 1
        line("</g>")
    }

    /// Raw markup for `<defs>` (patterns, markers); the caller writes it well formed.
    public mutating func raw(_ markup: String) { line(markup) }

    /// The whole file.
    public var text: String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(SVGValue.number(width).text)\" "
            + "height=\"\(SVGValue.number(height).text)\" viewBox=\"0 0 \(SVGValue.number(width).text) \(SVGValue.number(height).text)\">\n"
        for l in body { out += l + "\n" }
        out += "</svg>\n"
        return out
    }

    private mutating func line(_ text: String) {
        body.append(String(repeating: " ", count: depth) + text)
    }

    private static func attributes(_ pairs: KeyValuePairs<String, SVGValue>) -> String {
        var out = ""
        for (key, value) in pairs { out += " " + key + "=\"" + escape(value.text) + "\"" }
        return out
    }

    /// XML's five special characters; control characters (not allowed in XML 1.0) as '?'.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default: out.unicodeScalars.append(scalar.value < 0x20 ? "?" : scalar)
            }
        }
        return out
    }
}

/// An attribute value: numbers with at most two decimals (no exponent), or text.
public enum SVGValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    case number(Double)
    case string(String)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }

    public var text: String {
        switch self {
        case .string(let s): s
        case .number(let v): Self.format(v)
        }
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int64((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100
        let frac = abs(hundredths) % 100
        if frac == 0 { return sign + String(whole) }
        return sign + String(whole) + "." + (frac % 10 == 0 ? String(frac / 10) : (frac < 10 ? "0" : "") + String(frac))
    }
}

extension SVGValue {
    /// A number attribute: `.n(x)`.
    public static func n(_ value: Double) -> SVGValue { .number(value) }
    /// Text: `.s(name)`.
    public static func s(_ value: String) -> SVGValue { .string(value) }
}
