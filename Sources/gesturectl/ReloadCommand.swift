import ArgumentParser

/// `gesturectl reload`: like SIGHUP, but reports whether the new file was taken.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Reload the config file; on an error the daemon keeps running the previous one.")

    @OptionGroup var connection: SocketOption

    func run() throws {
        let reply = try connection.connect(timeout: 30).request(.reload)
        if case .object = reply, let message = reply["message"]?.stringValue {
            print(message)
        } else {
            print("reloaded")
        }
    }
}
