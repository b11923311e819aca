import ActionDispatch
import GestureConfig
import GestureControl
import GestureDaemon
import Logging

// gestured: the command line and start-up only; the daemon lives in GestureDaemon.
#if canImport(Glibc)
import Glibc
#endif

/// Writes a line to standard error (the C `stderr` global is not concurrency-safe).
func printError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// The program. Not top-level code: that is main-actor code, and Swift checks the main
/// actor's executor at run time, which sets up the concurrency runtime's executors (0.3 MiB
/// resident) for a program that has no tasks.
@main
enum Gestured {
    static func main() {
        let request: DaemonCommandLine.Request
        do {
            request = try DaemonCommandLine.parse(CommandLine.arguments.dropFirst())
        } catch {
            printError("gestured: \(error)\n  (gestured --help lists the options)")
            exit(64)  // EX_USAGE, as swift-argument-parser exits
        }
        switch request {
        case .run(let line): exit(run(line))
        case .check(let tree): exit(ConfigCheck.run(tree: tree))
        case .help: print(DaemonCommandLine.help, terminator: "")
        case .version: print(GesturedVersion.current)
        }
    }

    static func run(_ line: DaemonCommandLine) -> Int32 {
        let environment = ProcessEnvironment.current()
        let configuration: Configuration
        do {
            // As root the file's commands run as root: refuse one that others could change.
            configuration = try ConfigLoader.load(tree: line.options.configTree, enforcingSafety: ConfigFileSafety.isRoot)
        } catch {
            printError(error.description)
            // The files the problems are shown in: a drop-in's, when it made them.
            let files = error.files.isEmpty ? [line.configPath] : error.files
            printError(
                "gestured: not started; fix \(files.joined(separator: ", ")) ('gesturectl check \(line.configPath)' lists every problem)")
            return 1
        }
        let level = line.logLevel ?? Logger.Level(rawValue: configuration.daemon.logLevel) ?? .info
        StderrLogHandler.bootstrap(level: level, environment: environment)
        let logger = Logger(label: "gestured")
        for warning in configuration.warnings { logger.warning("\(warning)") }
        do {
            let daemon = try Daemon(options: line.options, configuration: configuration, environment: environment, logger: logger)
            try daemon.run()
            return 0
        } catch {
            logger.critical("not started: \(error)")
            return 1
        }
    }
}
