/// A page's session: opened by its `GET /events`, ended when that stream closes (the page
/// was closed, reloaded or died). From the page's first `set`, `mode` or `reset` it holds
/// a control connection of its own, so that the daemon undoes the page's changes (those
/// without `keep`) when the page goes, as it does for any client.
final class PageSession {
    let id: String
    let filter: EventFilter
    /// The subscription the page's stream reads from (shared with the pages that asked for the same lines).
    let subscription: SharedSubscription
    /// Opened by the first state-changing request; closing it undoes the changes.
    var control: DaemonChannel?

    init(id: String, filter: EventFilter, subscription: SharedSubscription) {
        self.id = id
        self.filter = filter
        self.subscription = subscription
    }

    /// A new session id: 128 random bits as hex (the kernel's getrandom, through Swift's generator).
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }
}
