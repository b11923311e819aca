import ArgumentParser
import GestureConfig
import GestureControl

#if canImport(Glibc)
import Glibc
#endif

/// `--socket PATH` and `--config FILE`, shared by the commands that talk to the daemon.
struct SocketOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The control socket (default: $GESTURED_SOCKET, else the config's [daemon] socket, else "
                + "/run/gestured/gestured.sock, else $XDG_RUNTIME_DIR/gestured/gestured.sock).",
            valueName: "path"))
    var socket: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The config whose [daemon] socket to use (default: \(ConfigLoader.defaultPath), when readable).",
            valueName: "file"))
    var config: String?

    /// Connects; errors print as `Error: gestured is not running: ...` with exit status 1.
    func connect(timeout: Double? = 10) throws -> ControlClient {
        let environment = ProcessEnvironment.current()
        let explicit = socket != nil || !(environment["GESTURED_SOCKET"] ?? "").isEmpty
        return try ControlClient(
            candidates: ControlSocketPath.candidates(
                option: socket, configured: explicit ? nil : try configuredSocket(), environment: environment),
            timeout: timeout)
    }

    /// `[daemon] socket` of `--config` (an error when it cannot be loaded), or of the default
    /// config when it is readable and valid (the daemon would not run on an invalid one).
    private func configuredSocket() throws -> String? {
        if let config { return try loadConfiguration(ConfigTree(mainFile: config)).daemon.socketPath }
        guard access(ConfigLoader.defaultPath, R_OK) == 0 else { return nil }
        return (try? ConfigLoader.load(tree: ConfigTree(mainFile: ConfigLoader.defaultPath)))?.daemon.socketPath
    }
}
