import JSONOutput

/// One HTTP/1.1 request as the bridge reads it: the head (request line, headers) and a
/// body of `Content-Length` bytes. Header names are kept lowercased.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The path without the query, percent-decoded.
    public var path: String
    /// The query's name-value pairs in order, percent-decoded (`+` is a space).
    public var query: [Pair]
    public var headers: [Pair]
    public var body: [UInt8]

    public init(method: String, path: String, query: [Pair], headers: [Pair], body: [UInt8]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    public struct Pair: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The first header named `name` (lowercase).
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// Every value of the query parameter `name`, comma-separated lists split.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.flatMap { $0.value.split(separator: ",").map(String.init) }
    }

    /// HTTP/1.1 keeps the connection unless the client says `Connection: close`.
    public var keepAlive: Bool { header("connection")?.lowercased() != "close" }
}

/// An HTTP status the bridge answers with.
public enum HTTPStatus: Int, Sendable {
    case ok = 200
    case noContent = 204
    case badRequest = 400
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case conflict = 409
    case lengthRequired = 411
    case payloadTooLarge = 413
    case unsupportedMediaType = 415
    case tooManyRequests = 429
    case headerFieldsTooLarge = 431
    case notImplemented = 501
    case badGateway = 502
    case serviceUnavailable = 503
    case gatewayTimeout = 504

    public var reason: String {
        switch self {
        case .ok: "OK"
        case .noContent: "No Content"
        case .badRequest: "Bad Request"
        case .forbidden: "Forbidden"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .conflict: "Conflict"
        case .lengthRequired: "Length Required"
        case .payloadTooLarge: "Payload Too Large"
        case .unsupportedMediaType: "Unsupported Media Type"
        case .tooManyRequests: "Too Many Requests"
        case .headerFieldsTooLarge: "Request Header Fields Too Large"
        case .notImplemented: "Not Implemented"
        case .badGateway: "Bad Gateway"
        case .serviceUnavailable: "Service Unavailable"
        case .gatewayTimeout: "Gateway Timeout"
        }
    }
}

/// A response: status, headers, body. `Content-Length` and `Connection` are added when
/// it is written; a stream (`/events`) writes only its head and then its events.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: [HTTPRequest.Pair]
    public var body: [UInt8]

    public init(_ status: HTTPStatus, contentType: String, body: [UInt8], headers: [HTTPRequest.Pair] = []) {
        self.status = status
        self.headers = [HTTPRequest.Pair("Content-Type", contentType)] + headers
        self.body = body
    }

    /// A JSON body.
    public static func json(_ status: HTTPStatus, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status, contentType: "application/json", body: body)
    }

    /// A refusal, as the control socket words them: `{"error": {"code", "message"}}`.
    public static func error(_ status: HTTPStatus, code: String, _ message: String) -> HTTPResponse {
        let text = "{\"error\":{\"code\":" + JSONText.string(code) + ",\"message\":" + JSONText.string(message) + "}}\n"
        return .json(status, Array(text.utf8))
    }

    /// The bytes on the wire; `length` false for a stream, whose end is the connection's.
    public func serialized(keepAlive: Bool, length: Bool = true) -> [UInt8] {
        var head = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if length { head += "Content-Length: \(body.count)\r\n" }
        head += keepAlive && length ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        // Nothing the bridge serves may be framed by another site (clickjacking the live view).
        head += "X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nCache-Control: no-store\r\n\r\n"
        return Array(head.utf8) + body
    }
}
