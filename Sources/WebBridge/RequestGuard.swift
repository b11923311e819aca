/// The checks a request passes before it is served (docs/PROTOCOL.md, "Web pages",
/// security): the `Host` header names this bridge (a DNS-rebinding page's request carries
/// the attacker's name), a page's `Origin` is one of the allowed, and a request that
/// changes state comes from an allowed origin with a JSON body (so that a cross-site form
/// cannot send it without the browser asking first).
public struct RequestGuard: Sendable {
    public let hosts: Set<String>
    public let origins: Set<String>

    /// `port` is the listening socket's; the loopback names of it are always accepted.
    public init(port: Int, extraHosts: [String], extraOrigins: [String]) {
        let own = ["localhost", "127.0.0.1", "[::1]"].map { "\($0):\(port)" }
        hosts = Set((own + extraHosts).map { $0.lowercased() })
        origins = Set((own.map { "http://\($0)" } + extraOrigins).map { $0.lowercased() })
    }

    public struct Refusal: Error, Equatable {
        public var status: HTTPStatus
        public var code: String
        public var message: String
    }

    /// Nil when `request` may be served; `changesState` for POST.
    public func check(_ request: HTTPRequest, changesState: Bool) -> Refusal? {
        guard let host = request.header("host"), hosts.contains(host.lowercased()) else {
            return Refusal(
                status: .forbidden, code: "host",
                message: "Host \(request.header("host").map { "'\($0)'" } ?? "missing") is not this bridge's "
                    + "(\(hosts.sorted().joined(separator: ", "))); add it with --allow-host")
        }
        let origin = request.header("origin")
        if let origin, !origins.contains(origin.lowercased()) {
            return Refusal(
                status: .forbidden, code: "origin",
                message: "origin '\(origin)' may not use this bridge; allow it with --allow-origin")
        }
        guard changesState else { return nil }
        guard origin != nil else {
            return Refusal(status: .forbidden, code: "origin", message: "a request that changes state needs an Origin header")
        }
        guard request.header("content-type")?.lowercased().hasPrefix("application/json") == true else {
            return Refusal(status: .unsupportedMediaType, code: "content-type", message: "the body must be application/json")
        }
        return nil
    }

    /// CORS headers for an allowed origin (never a wildcard); none without one.
    public func corsHeaders(_ request: HTTPRequest) -> [HTTPRequest.Pair] {
        guard let origin = request.header("origin"), origins.contains(origin.lowercased()) else { return [] }
        return [HTTPRequest.Pair("Access-Control-Allow-Origin", origin), HTTPRequest.Pair("Vary", "Origin")]
    }
}
