import GestureControl

/// One `subscribe` to the daemon, shared by every page that asked for the same lines (with
/// or without touches and trace): however many pages are open, the bridge holds at most
/// one such connection per kind, and each line is read and parsed once.
final class SharedSubscription {
    struct Kind: Hashable {
        var touches: Bool
        var trace: Bool

        /// The `subscribe` command's options for this kind.
        var options: [(String, JSONValue)] {
            [("touches", touches), ("trace", trace)].filter(\.1).map { ($0.0, JSONValue.bool(true)) }
        }
    }

    /// A page that asked for the stream before the daemon answered the `subscribe`.
    struct Waiting {
        let connection: WebConnection
        let request: HTTPRequest
    }

    enum State {
        /// `subscribe` sent: the pages that asked wait for the daemon's answer.
        case subscribing([Waiting])
        /// The daemon accepted: its lines go to `pages`.
        case streaming
    }

    let kind: Kind
    let channel: DaemonChannel
    var state: State
    /// The streams reading from it, in the order they opened.
    var pages: [WebConnection] = []

    init(kind: Kind, channel: DaemonChannel, first: Waiting) {
        self.kind = kind
        self.channel = channel
        state = .subscribing([first])
    }

    /// Forgets a page that went away (waiting or streaming).
    func remove(_ connection: WebConnection) {
        pages.removeAll { $0 === connection }
        if case .subscribing(let waiting) = state { state = .subscribing(waiting.filter { $0.connection !== connection }) }
    }

    /// Pages streaming or waiting to.
    var isEmpty: Bool {
        guard case .subscribing(let waiting) = state else { return pages.isEmpty }
        return waiting.isEmpty
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
}
