// gestured: argument parsing and start-up only; the daemon lives in GestureDaemon.
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureDaemon
import Logging

struct Gestured: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured",
        abstract: "The touchscreen gesture daemon: recognizes gestures on named screen regions and runs their actions.",
        discussion: """
            Reads live touchscreens (udev, libevdev) and follows hotplug. SIGHUP or \
            'gesturectl reload' reloads the config; a file with errors is refused and the \
            running config stays. SIGTERM or SIGINT stop it. 'gesturectl status' shows what \
            it is doing.
            """,
        version: GesturedVersion.current)

    @Option(name: .long, help: ArgumentHelp("The config file.", valueName: "file"))
    var config: String = ConfigLoader.defaultPath

    @Option(name: .long, help: ArgumentHelp(
        "The control socket (default: $GESTURED_SOCKET, [daemon] socket, /run/gestured/gestured.sock when writable, else $XDG_RUNTIME_DIR/gestured/gestured.sock).",
        valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (default: [daemon] log_level).",
                                            valueName: "level"))
    var logLevel: String?

    @Option(name: .long, help: ArgumentHelp("Validate a config file, print its gestures or every error, and exit (0: valid).",
                                            valueName: "file"))
    var check: String?

    @Option(name: .long, help: ArgumentHelp(
        "Read an evemu recording instead of touchscreens: it plays once {\"cmd\": \"replay-start\"} arrives on the control socket, and the daemon stays up after its end.",
        valueName: "file"))
    var replay: String?

    @Option(name: .long, help: ArgumentHelp("The device description of an events-only recording (with --replay).", valueName: "file"))
    var desc: String?

    @Option(name: .long, help: ArgumentHelp("Playback rate of --replay: 2 plays twice as fast as recorded.", valueName: "x"))
    var replaySpeed: Double = 1

    func validate() throws {
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("unknown log level '\(logLevel)': use trace, debug, info, notice, warning, error or critical")
        }
        guard replaySpeed.isFinite, replaySpeed > 0 else { throw ValidationError("--replay-speed must be a positive number") }
        if desc != nil, replay == nil { throw ValidationError("--desc describes the device of a --replay recording; pass --replay too") }
    }

    func run() throws {
        if let check { throw ExitCode(ConfigCheck.run(path: check)) }
        let environment = ProcessEnvironment.current()
        let configuration: Configuration
        do {
            // As root the file's commands run as root: refuse one that others could change.
            configuration = try ConfigLoader.load(path: config, enforcingSafety: ConfigFileSafety.isRoot)
        } catch {
            printError(error.description)
            printError("gestured: not started; fix \(config) ('gesturectl check \(config)' lists every problem)")
            throw ExitCode(1)
        }
        let level = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? Logger.Level(rawValue: configuration.daemon.logLevel) ?? .info
        StderrLogHandler.bootstrap(level: level, environment: environment)
        let logger = Logger(label: "gestured")
        do {
            let daemon = try Daemon(options: DaemonOptions(configPath: config, socketPath: socket,
                                                           replay: replay.map { .init(path: $0, descPath: desc, speed: replaySpeed) }),
                                    configuration: configuration, environment: environment, logger: logger)
            try daemon.run()
        } catch {
            logger.critical("not started: \(error)")
            throw ExitCode(1)
        }
    }
}

/// Writes a line to standard error (the C `stderr` global is not concurrency-safe).
func printError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

Gestured.main()
