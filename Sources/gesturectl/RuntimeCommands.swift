import ArgumentParser
import ConfigModel
import GestureControl

/// What `set` and `mode` share: `--keep`, and without it, holding the connection (the
/// change lives as long as it does).
struct ChangeLifetime: ParsableArguments {
    @Flag(help: "The change outlives gesturectl: it stays until reset or a restart of the daemon.")
    var keep = false

    /// Prints the daemon's reply; without `--keep`, waits until interrupted or the daemon
    /// goes away, so that the change stays in force meanwhile.
    func finish(_ client: ControlClient, _ reply: JSONValue) throws {
        print(reply["message"]?.stringValue ?? reply.text)
        guard !keep else { return }
        print("in force while gesturectl runs: interrupt it (Ctrl-C) to undo, or pass --keep")
        // The daemon answers nothing more on this connection: this returns when it closes.
        _ = try? client.readLine()
    }
}

/// `gesturectl set gesture|view NAME KEY=VALUE...`: turn a gesture or view on or off, move
/// a view (docs/PROTOCOL.md, `set`).
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Turn a gesture or view on or off, or move a view, in the running daemon.",
        discussion: """
            KEY=VALUE: enabled=true|false; for a view also x=, y=, width=, height= in px (a \
            number or 40px) or % of the parent view, relative to it; what is left out stays. \
            Examples: set gesture map_pan enabled=false; set view map x=50% width=50%. \
            The change lives as long as this connection unless --keep is given.
            """)

    @Argument(help: "gesture or view.")
    var kind: String

    @Argument(help: "Its name in the config.")
    var name: String

    @Argument(help: "enabled=true|false, x=, y=, width=, height=.")
    var values: [String] = []

    @OptionGroup var lifetime: ChangeLifetime
    @OptionGroup var connection: SocketOption

    func validate() throws {
        guard !values.isEmpty else { throw ValidationError("nothing to set: give enabled=true|false, or x=, y=, width=, height=") }
        _ = try request()
    }

    /// The typed `set` request the arguments say, checked here as the daemon would check it.
    func request() throws -> SetRequest {
        var request = SetRequest(target: try target(), keep: lifetime.keep)
        for pair in values {
            guard let equals = pair.firstIndex(of: "=") else { throw ValidationError("expected KEY=VALUE, found '\(pair)'") }
            let key = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            if key == "enabled" {
                guard let enabled = Bool(value) else { throw ValidationError("enabled is true or false, found '\(value)'") }
                request.enabled = enabled
                continue
            }
            let lengths: [String: WritableKeyPath<FramePatch, FrameLength?>] = ["x": \.x, "y": \.y, "width": \.width, "height": \.height]
            guard let member = lengths[key] else {
                throw ValidationError("unknown key '\(key)': expected enabled, x, y, width or height")
            }
            guard case .view = request.target else { throw ValidationError("only a view has \(key)=: a gesture has enabled= only") }
            // A bare number is px, as in the config.
            guard let length = Double(value).map(FrameLength.pixels) ?? FrameLength(text: value) else {
                throw ValidationError("\(key) is '\(value)': expected \(FrameLength.expected)")
            }
            request.frame = request.frame ?? FramePatch()
            request.frame?[keyPath: member] = length
        }
        return request
    }

    private func target() throws -> RuntimeTarget {
        switch kind {
        case "gesture": .gesture(name)
        case "view": .view(name)
        default: throw ValidationError("expected gesture or view, found '\(kind)'")
        }
    }

    func run() throws {
        let client = try connection.connect(timeout: nil)
        try lifetime.finish(client, try client.request(.set(try request())))
    }
}

/// `gesturectl mode NAME|none [--for DURATION]`: switch to a mode of the config.
struct ModeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mode",
        abstract: "Switch the running daemon to a mode of its config ([mode.NAME]), or back to none.",
        discussion: """
            With --for the mode ends by itself (e.g. --for 60s). It lives as long as this \
            connection unless --keep is given.
            """)

    @Argument(help: "A mode declared in the config, or none.")
    var mode: String

    @Option(name: .customLong("for"), help: ArgumentHelp("End the mode by itself after this long (30s, 2min).", valueName: "duration"))
    var duration: String?

    @OptionGroup var lifetime: ChangeLifetime
    @OptionGroup var connection: SocketOption

    func validate() throws { _ = try request() }

    /// The typed `mode` request: `none` for no mode, `--for` read as the daemon reads it.
    func request() throws -> ModeRequest {
        var request = ModeRequest(mode: mode == ModeSpec.none ? nil : mode, keep: lifetime.keep)
        if let duration {
            guard let parsed = ConfigDuration.parse(duration), parsed > 0 else {
                throw ValidationError("--for is '\(duration)': expected \(ConfigDuration.expected), more than 0")
            }
            guard request.mode != nil else { throw ValidationError("--for needs a mode to end, not none") }
            request.duration = parsed
        }
        return request
    }

    func run() throws {
        let client = try connection.connect(timeout: nil)
        try lifetime.finish(client, try client.request(.mode(try request())))
    }
}

/// `gesturectl reset [--all]`: undo changes.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Undo the changes made with set --keep by this user (--all: everyone's).")

    @Flag(help: "Undo every change in force, whoever made it.")
    var all = false

    @OptionGroup var connection: SocketOption

    func run() throws {
        let reply = try connection.connect().request(.reset(all: all))
        print(reply["message"]?.stringValue ?? reply.text)
    }
}
