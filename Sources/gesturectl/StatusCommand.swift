import ArgumentParser
import GestureControl

/// `gesturectl status`: what the daemon is doing, as tables or JSON.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show devices, views, gestures and their states, reloads, dispatcher counters and subscribers.")

    @OptionGroup var connection: SocketOption
    @Flag(name: .long, help: "Print the daemon's status object as one JSON line.")
    var json = false

    func run() throws {
        let status = try connection.connect().request(.status)
        print(json ? status.text : StatusText.render(DaemonStatus(json: status)), terminator: json ? "\n" : "")
    }
}
