import GestureConfig
import Logging

/// gestured's command line. The daemon has a handful of `--name value` options, so it
/// parses them with this table rather than swift-argument-parser (which `gesturectl`
/// uses): the parser's reflection and help machinery made 0.4 MiB of the daemon resident
/// for its whole life (docs/BENCHMARKS.md).
public struct DaemonCommandLine: Equatable, Sendable {
    /// What the command line asks for.
    public enum Request: Equatable, Sendable {
        case run(DaemonCommandLine)
        /// `--check FILE`: validate the file and its drop-ins, print, exit.
        case check(ConfigTree)
        case help
        case version
    }

    public var configPath: String = ConfigLoader.defaultPath
    /// `--config-dir`, each one given; nil: the config file's own drop-in directories.
    public var configDirectories: [String]?
    public var socketPath: String?
    public var logLevel: Logger.Level?
    public var checkPath: String?
    public var replayPath: String?
    public var streamPath: String?
    public var descPath: String?
    public var replaySpeed: Double = 1

    /// The defaults: the default config, no option given.
    public init() {}

    /// The daemon's options, with the `--replay` recording or the `--stream` when there is one.
    public var options: DaemonOptions {
        DaemonOptions(
            configPath: configPath, configDirectories: configDirectories, socketPath: socketPath,
            replay: replayPath.map { .init(path: $0, descPath: descPath, speed: replaySpeed) },
            stream: streamPath.map { .init(path: $0, descPath: descPath ?? "") })
    }

    /// One `--name value` option: its value's name and help, and where the value goes.
    struct Option: Sendable {
        var name: String
        var valueName: String
        var help: String
        var apply: @Sendable (inout DaemonCommandLine, String) throws(UsageError) -> Void
    }

    /// Every option, in the order `--help` lists them.
    static let table: [Option] = [
        Option(name: "config", valueName: "file", help: "The config file (default: \(ConfigLoader.defaultPath)).") {
            $0.configPath = $1
        },
        Option(
            name: "config-dir", valueName: "dir",
            help: """
                A drop-in directory, instead of the config file's (/usr/lib, /run and /etc/gestured/gestures.d for \
                the default file, FILE.d beside any other); may be repeated, lowest precedence first.
                """
        ) { $0.configDirectories = ($0.configDirectories ?? []) + [$1] },
        Option(
            name: "socket", valueName: "path",
            help: """
                The control socket (default: $GESTURED_SOCKET, [daemon] socket, /run/gestured/gestured.sock \
                when writable, else $XDG_RUNTIME_DIR/gestured/gestured.sock).
                """
        ) { $0.socketPath = $1 },
        Option(
            name: "log-level", valueName: "level",
            help: "trace, debug, info, notice, warning, error or critical (default: [daemon] log_level)."
        ) {
            (line: inout DaemonCommandLine, value: String) throws(UsageError) in
            guard let level = Logger.Level(rawValue: value) else {
                throw UsageError("unknown log level '\(value)': use trace, debug, info, notice, warning, error or critical")
            }
            line.logLevel = level
        },
        Option(
            name: "check", valueName: "file",
            help: "Validate a config file, print its gestures or every error, and exit (0: valid)."
        ) {
            $0.checkPath = $1
        },
        Option(
            name: "replay", valueName: "file",
            help: """
                Read an evemu recording instead of touchscreens: it plays once {"cmd": "replay-start"} arrives \
                on the control socket, and the daemon stays up after its end.
                """
        ) { $0.replayPath = $1 },
        Option(
            name: "stream", valueName: "file",
            help: """
                Read one touchscreen's raw events (struct input_event, as /dev/input/eventN gives them) from a pipe \
                or file instead of touchscreens ('-': standard input), e.g. ssh kiosk cat /dev/input/event5 | \
                gestured --stream - --desc kiosk.desc. Needs --desc.
                """
        ) { $0.streamPath = $1 },
        Option(
            name: "desc", valueName: "file",
            help: "The device description (evemu-describe) of an events-only --replay recording, or of --stream."
        ) {
            $0.descPath = $1
        },
        Option(name: "replay-speed", valueName: "x", help: "Playback rate of --replay: 2 plays twice as fast as recorded.") {
            (line: inout DaemonCommandLine, value: String) throws(UsageError) in
            guard let speed = Double(value), speed.isFinite, speed > 0 else {
                throw UsageError("--replay-speed must be a positive number, not '\(value)'")
            }
            line.replaySpeed = speed
        },
    ]

    /// Parses the arguments after the program name: `--name value` or `--name=value`, in
    /// any order, the last of a repeated option winning; `-h`/`--help` and `--version`
    /// answer at once.
    public static func parse(_ arguments: some Sequence<String>) throws(UsageError) -> Request {
        var line = DaemonCommandLine()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "-h", "--help": return .help
            case "--version": return .version
            default: break
            }
            guard argument.hasPrefix("--") else { throw UsageError("unexpected argument '\(argument)'") }
            let (name, inlineValue) = split(option: argument.dropFirst(2))
            guard let option = table.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)'")
            }
            guard let value = inlineValue ?? iterator.next() else {
                throw UsageError("--\(name) needs a value (\(option.valueName))")
            }
            try option.apply(&line, value)
        }
        if line.replayPath != nil, line.streamPath != nil {
            throw UsageError("--replay and --stream are two inputs; pass one")
        }
        if line.streamPath != nil, line.descPath == nil {
            throw UsageError("--stream needs the device's description: --desc FILE (evemu-describe writes one)")
        }
        if line.descPath != nil, line.replayPath == nil, line.streamPath == nil {
            throw UsageError("--desc describes the device of a --replay recording or a --stream; pass one of them too")
        }
        if let checkPath = line.checkPath {
            return .check(ConfigTree(mainFile: checkPath, dropInDirectories: line.configDirectories))
        }
        return .run(line)
    }

    private static func split(option: Substring) -> (name: String, value: String?) {
        guard let equals = option.firstIndex(of: "=") else { return (String(option), nil) }
        return (String(option[..<equals]), String(option[option.index(after: equals)...]))
    }

    /// `gestured --help`.
    public static var help: String {
        var text = """
            gestured: the touchscreen gesture daemon. Recognizes gestures on named screen regions \
            and runs their actions.

            Reads live touchscreens (udev, libevdev) and follows hotplug. SIGHUP or \
            'gesturectl reload' reloads the config; a file with errors is refused and the \
            running config stays. SIGTERM or SIGINT stop it. 'gesturectl status' shows what \
            it is doing.

            USAGE: gestured [--config <file>] [--socket <path>] [--log-level <level>] [--replay <file> | --stream <file>] ...

            OPTIONS:

            """
        for option in table {
            text += "  --\(option.name) <\(option.valueName)>\n      \(option.help)\n"
        }
        text += "  --version\n      Show the version.\n  -h, --help\n      Show this help.\n"
        return text
    }
}

/// A command line gestured cannot use; `description` says why, for `gestured: ...`.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
