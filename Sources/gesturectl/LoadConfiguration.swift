import ArgumentParser
import GestureConfig

/// `--config-dir DIR`, for the commands that read a config (check, replay, render).
struct ConfigDirectoryOptions: ParsableArguments {
    @Option(
        name: .customLong("config-dir"),
        help: ArgumentHelp(
            "A drop-in directory, instead of those of the config file (may be repeated, lowest precedence first).",
            valueName: "dir"))
    var directories: [String] = []

    /// The config of `mainFile`: its own drop-in directories, or these.
    func tree(mainFile: String) -> ConfigTree {
        ConfigTree(mainFile: mainFile, dropInDirectories: directories.isEmpty ? nil : directories)
    }
}

/// A config for a command that runs it (replay, render): every problem printed with its
/// file:line:col, then exit status 1.
func loadConfiguration(_ tree: ConfigTree) throws -> Configuration {
    do {
        return try ConfigLoader.load(tree: tree)
    } catch {
        printError(error.description)
        throw ExitCode(1)
    }
}
