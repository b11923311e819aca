/// Reads one request from the bytes a connection received, within the bridge's bounds
/// (docs/LIMITS.md): a head of at most `maximumHead` bytes, a body of at most
/// `maximumBody` given by `Content-Length`. What a loopback bridge has no use for is
/// refused rather than half-supported: chunked request bodies, other HTTP versions.
public enum HTTPRequestParser {
    public enum Outcome: Equatable {
        /// Not a whole request yet.
        case incomplete
        /// A request, and how many bytes of the input it took.
        case request(HTTPRequest, consumed: Int)
        /// A request the bridge will not read: answered with this, then the connection closes.
        case refused(HTTPStatus, String)
    }

    public static func parse(_ input: ArraySlice<UInt8>, limits: WebLimits) -> Outcome {
        guard let headEnd = endOfHead(input) else {
            return input.count > limits.maximumHead
                ? .refused(.headerFieldsTooLarge, "the request head is longer than \(limits.maximumHead) bytes") : .incomplete
        }
        guard headEnd - input.startIndex <= limits.maximumHead else {
            return .refused(.headerFieldsTooLarge, "the request head is longer than \(limits.maximumHead) bytes")
        }
        let head = String(decoding: input[input.startIndex..<headEnd], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        let requestLine = lines.popFirst()?.split(separator: " ", omittingEmptySubsequences: false) ?? []
        guard requestLine.count == 3, !requestLine[0].isEmpty, requestLine[1].hasPrefix("/") else {
            return .refused(.badRequest, "not an HTTP request line")
        }
        guard requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0" else {
            return .refused(.notImplemented, "only HTTP/1.1 is served")
        }
        var headers: [HTTPRequest.Pair] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return .refused(.badRequest, "a header line without a colon") }
            headers.append(
                HTTPRequest.Pair(
                    line[..<colon].lowercased(), String(line[line.index(after: colon)...]).trimmingSpaces))
        }
        if headers.contains(where: { $0.name == "transfer-encoding" }) {
            return .refused(.lengthRequired, "request bodies must have a Content-Length (no chunked encoding)")
        }
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        var length = 0
        if let text = lengths.first {
            guard let value = Int(text), value >= 0, Set(lengths).count == 1 else {
                return .refused(.badRequest, "a bad Content-Length")
            }
            length = value
        }
        guard length <= limits.maximumBody else {
            return .refused(.payloadTooLarge, "the body is longer than \(limits.maximumBody) bytes")
        }
        let bodyStart = headEnd + 4
        guard input.endIndex - bodyStart >= length else { return .incomplete }
        let target = requestLine[1]
        let question = target.firstIndex(of: "?")
        let request = HTTPRequest(
            method: String(requestLine[0]),
            path: percentDecoded(target[..<(question ?? target.endIndex)], plusIsSpace: false),
            query: question.map { queryPairs(target[target.index(after: $0)...]) } ?? [],
            headers: headers,
            body: Array(input[bodyStart..<(bodyStart + length)]))
        return .request(request, consumed: bodyStart + length - input.startIndex)
    }

    /// The index of the `\r\n\r\n` that ends the head.
    private static func endOfHead(_ input: ArraySlice<UInt8>) -> Int? {
        guard input.count >= 4 else { return nil }
        var i = input.startIndex
        while i + 3 < input.endIndex {
            if input[i] == 13, input[i + 1] == 10, input[i + 2] == 13, input[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }

    private static func queryPairs(_ query: Substring) -> [HTTPRequest.Pair] {
        query.split(separator: "&").map { item in
            let equals = item.firstIndex(of: "=")
            return HTTPRequest.Pair(
                percentDecoded(item[..<(equals ?? item.endIndex)], plusIsSpace: true),
                equals.map { percentDecoded(item[item.index(after: $0)...], plusIsSpace: true) } ?? "")
        }
    }

    /// `%41` as `A`; a malformed escape stays as written.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (header values).
    var trimmingSpaces: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
