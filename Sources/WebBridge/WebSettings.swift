import GestureControl

/// What the bridge serves and to whom: the command line of `gestured-web` (docs/PROTOCOL.md,
/// "Web pages"); the systemd unit passes it, a drop-in changes it.
public struct WebSettings: Sendable {
    /// The control socket paths to try, in order (as gesturectl tries them).
    public var socketCandidates: [String]
    /// `Host` values accepted besides the listening address's own loopback names.
    public var extraHosts: [String] = []
    /// Origins (`scheme://host[:port]`) whose pages may change state and read the stream,
    /// besides the bridge's own pages.
    public var extraOrigins: [String] = []
    /// Admin commands served as `POST /reload`, `POST /trigger` (none unless configured).
    public var exposed: Set<ControlCommand> = []
    /// The config file for the live view's picture (`GET /`); nil: no picture, the stream only.
    public var configPath: String?
    public var limits = WebLimits()

    public init(socketCandidates: [String]) { self.socketCandidates = socketCandidates }

    /// The admin commands that may be exposed.
    public static let exposable: [ControlCommand] = [.reload, .trigger]
}

/// Every bound of the bridge, with the refusal it gives (docs/LIMITS.md).
public struct WebLimits: Sendable {
    /// Open HTTP connections; the next is answered 503 and closed.
    public var maximumConnections = 32
    /// Open event streams (page sessions); each holds up to two control connections, so
    /// the default stays within half of the daemon's 64.
    public var maximumStreams = 16
    /// A request's head (request line and headers): 431 beyond.
    public var maximumHead = 8192
    /// A request's body: 413 beyond.
    public var maximumBody = 16384
    /// Seconds from a request's first byte to its last: 408 beyond.
    public var requestSeconds = 10.0
    /// Seconds an idle keep-alive connection stays open.
    public var idleSeconds = 60.0
    /// Bytes of events waiting for one slow page: beyond, its stream is closed (the page's
    /// EventSource reconnects, without the events it missed).
    public var streamQueueBytes = 262_144
    /// Seconds the bridge waits for the daemon's reply to one request: 504 beyond.
    public var daemonReplySeconds = 2.0

    public init() {}
}
