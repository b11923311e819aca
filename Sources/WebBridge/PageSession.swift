import GestureControl

#if canImport(Glibc)
import Glibc
#endif

/// A page's session: opened by its `GET /events`, ended when that stream closes (the page
/// was closed, reloaded or died). It holds the subscription and, from the page's first
/// `set`, `mode` or `reset`, a control connection of its own, so that the daemon undoes
/// the page's changes (those without `keep`) when the page goes, as it does for any client.
final class PageSession {
    let id: String
    let subscription: ControlClient
    let filter: EventFilter
    /// Opened by the first state-changing request; closing it undoes the changes.
    var control: ControlClient?
    /// Stream bytes after the last whole line.
    var partial: [UInt8] = []

    init(id: String, subscription: ControlClient, filter: EventFilter) {
        self.id = id
        self.subscription = subscription
        self.filter = filter
        partial = subscription.takeBuffered()
    }

    /// A new session id: 128 random bits as hex (the kernel's getrandom, through Swift's generator).
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    enum Read {
        /// The stream's new lines, as SSE events for the page.
        case events([UInt8])
        /// The daemon closed the stream (it stopped); what came before the end.
        case ended([UInt8])
    }

    /// Reads what the daemon sent (at most `maximum` bytes this turn) and frames each whole
    /// line that passes the filter as one SSE event, the JSON unchanged.
    func read(maximum: Int) -> Read {
        var chunk = [UInt8](repeating: 0, count: 16384)
        var total = 0
        var ended = false
        while total < maximum {
            let n = recv(subscription.descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT))
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
        var events: [UInt8] = []
        var start = 0
        while let newline = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = partial[start..<newline]
            start = newline + 1
            if line.isEmpty { continue }
            if !filter.passesEverything {
                guard let parsed = EventLine(line: line), filter.passes(parsed) else { continue }
            }
            events += Array("data: ".utf8) + line + [10, 10]
        }
        partial.removeFirst(start)
        return ended ? .ended(events) : .events(events)
    }
}
