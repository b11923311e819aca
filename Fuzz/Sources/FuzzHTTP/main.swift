// The web bridge's only parser of untrusted bytes (gestured-web faces every page a browser
// on the kiosk opens): arbitrary bytes read as a connection's buffer, within the bridge's
// bounds. Invariants: a request takes no more bytes than there are and at least its head;
// what it reads stays within the bounds (docs/LIMITS.md); an incomplete head is never
// longer than the bound; the Host/Origin checks and the query reading take any request.
import FuzzSupport
import WebBridge

let limits = WebLimits()
let guardian = RequestGuard(port: 8470, extraHosts: ["kiosk.local:8470"], extraOrigins: ["http://kiosk.local:8470"])

runFuzzer { input in
    let bytes = Array(input.bindMemory(to: UInt8.self))
    // The whole buffer, then from an offset, as a connection that kept a previous request's
    // leftover would parse it (an ArraySlice whose indices do not start at 0).
    for start in [0, min(bytes.count, 3)] {
        let slice = bytes[start...]
        switch HTTPRequestParser.parse(slice, limits: limits) {
        case .incomplete:
            FuzzCheck.require(
                slice.count <= limits.maximumHead + 4 + limits.maximumBody,
                "incomplete with \(slice.count) bytes, beyond the head and body bounds")
        case .refused(let status, let why):
            FuzzCheck.require(status.rawValue >= 400 && !why.isEmpty, "a refusal without a reason: \(status)")
        case .request(let request, let consumed):
            FuzzCheck.require(consumed > 0 && consumed <= slice.count, "consumed \(consumed) of \(slice.count)")
            FuzzCheck.require(request.body.count <= limits.maximumBody, "a body of \(request.body.count) bytes")
            FuzzCheck.require(request.path.hasPrefix("/"), "a path without its slash: \(request.path)")
            for changesState in [false, true] {
                if let refusal = guardian.check(request, changesState: changesState) {
                    FuzzCheck.require(refusal.status.rawValue >= 400, "a refusal that is not an error: \(refusal)")
                }
            }
            _ = guardian.corsHeaders(request)
            _ = request.queryValues("gesture") + request.queryValues("view")
        }
    }
}
