import ArgumentParser
import GestureConfig

/// A config file for a command that runs it (replay, render): every problem printed with
/// its file:line:col, then exit status 1.
func loadConfiguration(_ path: String) throws -> Configuration {
    do {
        return try ConfigLoader.load(path: path)
    } catch {
        printError(error.description)
        throw ExitCode(1)
    }
}
