import ArgumentParser
import GestureControl

/// `--socket PATH`, shared by the commands that talk to the daemon.
struct SocketOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The control socket (default: $GESTURED_SOCKET, else /run/gestured/gestured.sock, else $XDG_RUNTIME_DIR/gestured/gestured.sock).",
            valueName: "path"))
    var socket: String?

    /// Connects; errors print as `Error: gestured is not running: ...` with exit status 1.
    func connect(timeout: Double? = 10) throws -> ControlClient {
        try ControlClient(
            candidates: ControlSocketPath.candidates(option: socket, environment: ProcessEnvironment.current()),
            timeout: timeout)
    }
}
