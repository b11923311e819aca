import ArgumentParser
import GestureConfig

/// `gesturectl check [--config FILE]` (or `check FILE`): validate a config as the daemon would load it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a gestures.toml and its drop-ins and print every gesture's resolved parameters.",
        discussion: """
            Reads the main file and its drop-ins as the daemon does and prints the files \
            in order (when there are drop-ins), the screen, views, device rules and every \
            gesture with all its parameters (defaults marked), or every error as \
            file:line:col: error: key.path: message. Exits 0 when the config is valid, 1 \
            otherwise. As root, also refuses a file that is not owned by root or is \
            writable by group or others, as the daemon does. For a configuration manager's \
            validate step (Ansible's validate: gesturectl check --as-dropin %s \
            --dropin-name 50-site.toml), --as-dropin checks the tree as it would be with \
            the candidate file in place, and names it by that place in every error. \
            --dropin-name is required unless the file already has the drop-in's name: a \
            configuration manager's temporary file does not.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The config file (default: \(ConfigLoader.defaultPath)).", valueName: "file"))
    var config: String?

    /// The spelling before `--config`, kept: `gesturectl check FILE`.
    @Argument(help: ArgumentHelp("The config file, as --config names it.", valueName: "file"))
    var file: String?

    @OptionGroup var dropIns: ConfigDirectoryOptions

    @Option(
        help: ArgumentHelp("Print one gesture's keys, each with the file:line:col that set it, and its defaults.", valueName: "gesture"))
    var explain: String?

    @Option(
        name: .customLong("as-dropin"),
        help: ArgumentHelp("Check the config with this file in place of a drop-in of the last drop-in directory.", valueName: "file"))
    var asDropIn: String?

    @Option(
        name: .customLong("dropin-name"),
        help: ArgumentHelp(
            "The name --as-dropin's file will have there, NAME.toml; required unless the file already has it (a configuration manager's temporary file does not).",
            valueName: "name"))
    var dropInName: String?

    func validate() throws {
        if config != nil, file != nil { throw ValidationError("name the file once: --config FILE or FILE") }
        if dropInName != nil, asDropIn == nil { throw ValidationError("--dropin-name goes with --as-dropin") }
        if let asDropIn, dropInName == nil, !(candidate?.name.hasSuffix(".toml") ?? false) {
            throw ValidationError(
                "--as-dropin \(asDropIn): name the drop-in it stands for with --dropin-name NAME.toml "
                    + "(its own name is not a drop-in's, as a configuration manager's temporary file's is not)")
        }
        if let name = candidate?.name, !name.hasSuffix(".toml") || name.contains("/") {
            throw ValidationError("a drop-in's name ends in .toml and has no '/' (it would not be read): \(name)")
        }
    }

    private var candidate: ConfigTree.Candidate? {
        asDropIn.map { path in
            ConfigTree.Candidate(path: path, name: dropInName ?? String(path.split(separator: "/").last ?? Substring(path)))
        }
    }

    func run() throws {
        let tree = dropIns.tree(mainFile: config ?? file ?? ConfigLoader.defaultPath)
        let status = ConfigCheck.run(tree: tree, candidate: candidate, explain: explain)
        if status != 0 { throw ExitCode(status) }
    }
}
