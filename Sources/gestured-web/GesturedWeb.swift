import ArgumentParser
import GestureConfig
import GestureControl
import GestureCore
import GesturePicture
import LinuxSystem
import SystemLoop
import WebBridge

#if canImport(Glibc)
import Glibc
#endif

/// `gestured-web`: the web bridge, a client of the control socket serving kiosk pages on
/// loopback (docs/PROTOCOL.md, "Web pages"). Its settings are its command line; the
/// shipped unit passes them and a drop-in (`systemctl edit gestured-web`) changes them.
@main
struct GesturedWeb: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured-web",
        abstract: "Serve gestured's event stream, runtime changes, status and live view to web pages.",
        discussion: """
            Started by systemd's gestured-web.socket, it serves the socket it is given (fd 3); \
            otherwise it listens on --listen. Only the listening address's loopback names are \
            accepted as Host, and only its own pages' origins may change state, unless widened \
            with --allow-host and --allow-origin.
            """,
        version: GesturedVersion.current)

    @Option(help: ArgumentHelp("Where to listen when not socket-activated.", valueName: "host:port"))
    var listen = "127.0.0.1:8470"

    @Option(
        help: ArgumentHelp(
            "The daemon's control socket (default: as gesturectl finds it, the config's [daemon] socket among them).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("The config file drawn by the live view (GET /).", valueName: "file"))
    var config: String = ConfigLoader.defaultPath

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("Another Host header to accept (may be repeated).", valueName: "host:port"))
    var hosts: [String] = []

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp("An origin whose pages may read the stream and change state (may be repeated).", valueName: "scheme://host:port")
    )
    var origins: [String] = []

    @Option(help: ArgumentHelp("Serve an admin command: reload or trigger (may be repeated).", valueName: "command"))
    var expose: [String] = []

    @Option(name: .customLong("max-streams"), help: ArgumentHelp("Event streams (page sessions) at once.", valueName: "n"))
    var maximumStreams = WebLimits().maximumStreams

    func validate() throws {
        for name in expose where !WebSettings.exposable.map(\.rawValue).contains(name) {
            throw ValidationError("--expose takes \(WebSettings.exposable.map(\.rawValue).joined(separator: " or ")), not \(name)")
        }
        for origin in origins where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) || origin.hasSuffix("/") || origin == "*"
        {
            throw ValidationError("--allow-origin takes one origin, scheme://host[:port] without a path: \(origin)")
        }
        guard (1...224).contains(maximumStreams) else { throw ValidationError("--max-streams: 1 to 224 (of 256 connections)") }
    }

    func run() throws {
        UnixSocket.ignoreSIGPIPE()
        let environment = ProcessEnvironment.current()
        // The config's [daemon] socket, as gesturectl reads it; a config that does not load
        // leaves the default places (the live view says what is wrong with it).
        let configured = socket == nil ? (try? ConfigLoader.load(tree: ConfigTree(mainFile: config)))?.daemon.socketPath : nil
        var settings = WebSettings(
            socketCandidates: ControlSocketPath.candidates(option: socket, configured: configured, environment: environment))
        settings.extraHosts = hosts
        settings.extraOrigins = origins
        settings.exposed = Set(expose.compactMap(ControlCommand.init(rawValue:)))
        settings.limits.maximumStreams = maximumStreams
        let listener: FileDescriptor
        do {
            listener = try TCPListener.inherited(environment) ?? TCPListener.bind(listen)
        } catch {
            printError("gestured-web: \(error)")
            throw ExitCode(1)
        }
        guard let local = TCPListener.localPort(listener) else {
            printError("gestured-web: the listening socket is not a TCP socket (fd 3 from the .socket unit?)")
            throw ExitCode(1)
        }
        if !local.loopback, hosts.isEmpty {
            printError("gestured-web: listening beyond loopback; pages reach it only by the Host names given with --allow-host")
        }
        let loop = try EventLoop()
        let bridge = try WebBridge(
            loop: loop, listener: listener, settings: settings, pages: WebPages(picture: Self.picture(config: config)),
            log: printError)
        try loop.watchSignals([SIGTERM, SIGINT]) { _ in
            bridge.closeAll()
            loop.stop()
        }
        // The first line tells a test or a shell which port it got (with --listen HOST:0).
        writeLine("gestured-web listening on port \(local.port)", to: 1)
        try loop.run()
    }

    /// The live view's picture: the config drawn with the daemon's live frames and switches
    /// (as `gesturectl render --live`).
    static func picture(config: String) -> @Sendable (JSONValue?) -> HTTPResponse {
        { (status: JSONValue?) -> HTTPResponse in
            var configuration: Configuration
            do {
                configuration = try ConfigLoader.load(tree: ConfigTree(mainFile: config))
            } catch {
                return .error(.serviceUnavailable, code: "config", "\(config): \(error)")
            }
            if let status { configuration.apply(DaemonStatus(json: status)) }
            return HTTPResponse(
                .ok, contentType: "image/svg+xml", body: Array(Picture(configuration: configuration, title: config).svg.utf8))
        }
    }
}

/// The log: standard error, which systemd gives the journal.
func printError(_ text: String) { writeLine(text, to: 2) }

/// One line to `fd` (the C `stdout`/`stderr` globals are not concurrency-safe).
func writeLine(_ text: String, to fd: Int32) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
