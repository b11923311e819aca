import GestureControl
import Testing
import WebBridge

struct RequestGuardTests {
    let guardian = RequestGuard(port: 8470, extraHosts: ["kiosk.lan:8470"], extraOrigins: ["http://kiosk.lan:8080"])

    func request(_ method: String = "GET", host: String? = "localhost:8470", origin: String? = nil, json: Bool = true) -> HTTPRequest {
        var headers: [HTTPRequest.Pair] = []
        if let host { headers.append(.init("host", host)) }
        if let origin { headers.append(.init("origin", origin)) }
        if json { headers.append(.init("content-type", "application/json")) }
        return HTTPRequest(method: method, path: "/set", query: [], headers: headers, body: [])
    }

    @Test func aRebindingPagesHostIsRefused() {
        #expect(guardian.check(request(host: "attacker.example:8470"), changesState: false)?.code == "host")
        #expect(guardian.check(request(host: nil), changesState: false)?.code == "host")
        #expect(guardian.check(request(host: "127.0.0.1:8470"), changesState: false) == nil)
        #expect(guardian.check(request(host: "[::1]:8470"), changesState: false) == nil)
        #expect(guardian.check(request(host: "KIOSK.lan:8470"), changesState: false) == nil)
        // The port is part of the name: another local service's port is another origin.
        #expect(guardian.check(request(host: "localhost:80"), changesState: false)?.code == "host")
    }

    @Test func stateChangesOnlyFromAllowedOriginsWithJSON() {
        #expect(guardian.check(request("POST", origin: "http://localhost:8470"), changesState: true) == nil)
        #expect(guardian.check(request("POST", origin: "http://kiosk.lan:8080"), changesState: true) == nil)
        #expect(guardian.check(request("POST", origin: "https://evil.example"), changesState: true)?.code == "origin")
        #expect(guardian.check(request("POST", origin: "null"), changesState: true)?.code == "origin")
        #expect(guardian.check(request("POST"), changesState: true)?.code == "origin")
        #expect(
            guardian.check(request("POST", origin: "http://localhost:8470", json: false), changesState: true)?.status
                == .unsupportedMediaType)
        // A foreign page may not read the stream either (its touches are the kiosk user's).
        #expect(guardian.check(request(origin: "https://evil.example"), changesState: false)?.code == "origin")
    }

    @Test func corsNamesTheOriginNeverAWildcard() {
        let allowed = guardian.corsHeaders(request(origin: "http://kiosk.lan:8080"))
        #expect(allowed.contains(.init("Access-Control-Allow-Origin", "http://kiosk.lan:8080")))
        #expect(guardian.corsHeaders(request(origin: "https://evil.example")).isEmpty)
        #expect(guardian.corsHeaders(request()).isEmpty)
    }

    @Test func theFilterPassesRuntimeLinesAndTheNamedGestures() throws {
        let filter = EventFilter(gestures: ["tap"], views: ["panel"])
        func line(_ text: String) throws -> EventLine { try #require(EventLine(line: Array(text.utf8))) }
        #expect(filter.passes(try line(#"{"t":1,"gesture":"tap","type":"tap","state":"recognized","view":"panel"}"#)))
        #expect(!filter.passes(try line(#"{"t":1,"gesture":"drag","type":"pan","state":"began","view":"panel"}"#)))
        #expect(!filter.passes(try line(#"{"t":1,"touch":3,"device":0,"phase":"began","x":1,"y":2,"view":"map"}"#)))
        #expect(filter.passes(try line(#"{"t":1,"mode":"maintenance","from":null}"#)))
        #expect(filter.passes(try line(#"{"t":1,"changed":{"gesture":"drag","enabled":false}}"#)))
    }
}
