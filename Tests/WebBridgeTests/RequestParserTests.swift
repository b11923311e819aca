import Testing
import WebBridge

struct RequestParserTests {
    let limits = WebLimits()

    @Test func aWholeRequestWithQueryAndBody() throws {
        let text = "POST /set?session=ab%20c&gesture=a,b&gesture=c HTTP/1.1\r\nHost: localhost:8470\r\nContent-Length: 4\r\n\r\n{}\r\nGET"
        guard case .request(let request, let consumed) = HTTPRequestParser.parse(Array(text.utf8)[...], limits: limits) else {
            Issue.record("not parsed")
            return
        }
        #expect(request.method == "POST" && request.path == "/set")
        #expect(request.queryValues("session") == ["ab c"] && request.queryValues("gesture") == ["a", "b", "c"])
        #expect(request.header("host") == "localhost:8470")
        #expect(request.body == Array("{}\r\n".utf8))
        #expect(consumed == text.utf8.count - 3)
    }

    @Test func partsAreIncompleteUntilTheBodyIsIn() {
        let head = "POST /set HTTP/1.1\r\nContent-Length: 10\r\n\r\n12345"
        #expect(HTTPRequestParser.parse(Array("GET / HTTP/1.1\r\n".utf8)[...], limits: limits) == .incomplete)
        #expect(HTTPRequestParser.parse(Array(head.utf8)[...], limits: limits) == .incomplete)
    }

    @Test func whatExceedsABoundIsRefusedWithItsStatus() {
        var small = WebLimits()
        small.maximumHead = 64
        small.maximumBody = 8
        let longHead = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 100)
        #expect(outcomeStatus(longHead, small) == .headerFieldsTooLarge)
        #expect(outcomeStatus("POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\n", small) == .payloadTooLarge)
        #expect(outcomeStatus("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", small) == .lengthRequired)
        #expect(outcomeStatus("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", small) == .badRequest)
        #expect(outcomeStatus("GET / HTTP/2\r\n\r\n", small) == .notImplemented)
        #expect(outcomeStatus("hello\r\n\r\n", small) == .badRequest)
    }

    private func outcomeStatus(_ text: String, _ limits: WebLimits) -> HTTPStatus? {
        if case .refused(let status, _) = HTTPRequestParser.parse(Array(text.utf8)[...], limits: limits) { return status }
        return nil
    }
}
