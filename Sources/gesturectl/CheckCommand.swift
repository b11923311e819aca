import ArgumentParser
import GestureConfig

/// `gesturectl check [--config FILE]` (or `check FILE`): validate a config as the daemon would load it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a gestures.toml and print every gesture's resolved parameters.",
        discussion: """
            Prints the screen, views, device rules and every gesture with all its parameters \
            (defaults marked), or every error as file:line:col: error: key.path: message. \
            Exits 0 when the file is valid, 1 otherwise. As root, also refuses a file that \
            is not owned by root or is writable by group or others, as the daemon does.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The config file (default: \(ConfigLoader.defaultPath)).", valueName: "file"))
    var config: String?

    /// The spelling before `--config`, kept: `gesturectl check FILE`.
    @Argument(help: ArgumentHelp("The config file, as --config names it.", valueName: "file"))
    var file: String?

    func validate() throws {
        if config != nil, file != nil { throw ValidationError("name the file once: --config FILE or FILE") }
    }

    func run() throws {
        let status = ConfigCheck.run(path: config ?? file ?? ConfigLoader.defaultPath)
        if status != 0 { throw ExitCode(status) }
    }
}
