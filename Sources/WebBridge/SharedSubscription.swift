import GestureControl

#if canImport(Glibc)
import Glibc
#endif

/// One `subscribe` to the daemon, shared by every page that asked for the same lines (with
/// or without touches and trace): however many pages are open, the bridge holds at most
/// one such connection per kind, and each line is read and parsed once.
final class SharedSubscription {
    struct Kind: Hashable {
        var touches: Bool
        var trace: Bool
    }

    let kind: Kind
    let client: ControlClient
    /// The streams reading from it, in the order they opened.
    var pages: [WebConnection] = []
    /// Bytes after the last whole line.
    private var partial: [UInt8]

    /// Subscribes (a blocking round trip, bounded by the client's timeout), then reads on
    /// without blocking.
    init(kind: Kind, client: ControlClient) throws(ControlClientError) {
        self.kind = kind
        self.client = client
        let options = [("touches", kind.touches), ("trace", kind.trace)].filter(\.1).map { ($0.0, JSONValue.bool(true)) }
        _ = try client.request(.subscribe, options)
        _ = fcntl(client.descriptor, F_SETFL, fcntl(client.descriptor, F_GETFL) | O_NONBLOCK)
        partial = client.takeBuffered()
    }

    /// One line of the stream, parsed only when a page's filter needs it, at most once.
    struct Line {
        let bytes: ArraySlice<UInt8>
        private var parsed: EventLine??

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        mutating func passes(_ filter: EventFilter) -> Bool {
            if filter.passesEverything { return true }
            if parsed == nil { parsed = .some(EventLine(line: bytes)) }
            guard let line = parsed ?? nil else { return false }
            return filter.passes(line)
        }

        /// The line as one Server-Sent Event, its JSON unchanged.
        var event: [UInt8] { Array("data: ".utf8) + bytes + [10, 10] }
    }

    /// The whole lines the daemon sent (at most about `maximum` bytes this turn), and
    /// whether the stream ended (the daemon stopped or dropped the subscription).
    func read(maximum: Int) -> (lines: [Line], ended: Bool) {
        var chunk = [UInt8](repeating: 0, count: 16384)
        var total = 0
        var ended = false
        while total < maximum {
            let n = recv(client.descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if n > 0 {
                partial += chunk[0..<n]
                total += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                ended = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
                break
            }
        }
        var lines: [Line] = []
        var start = 0
        while let newline = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline > start { lines.append(Line(partial[start..<newline])) }
            start = newline + 1
        }
        partial.removeFirst(start)
        return (lines, ended)
    }
}
