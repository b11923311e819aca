import ArgumentParser
import GestureControl

/// `gesturectl trigger GESTURE [STATE]`: the daemon runs a gesture's actions as if it had
/// been recognized, to try a command under the service's user and sandbox.
struct TriggerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trigger",
        abstract: "Run a gesture's actions through the daemon with a synthetic event, without touching the screen.",
        discussion: """
            The daemon runs the actions of the gesture's state (default: the first state that \
            has actions: recognized for tap and swipe, began, changed, ended or cancelled for \
            the others) as the service's user, inside its sandbox, with \
            an event at the centre of the gesture's view; subscribers see it too. Commands \
            run in the background: their failures are in the daemon's log and the \
            dispatcher's counters (gesturectl status).
            """)

    @Argument(help: "The gesture's name in the config.")
    var gesture: String

    @Argument(help: "recognized (tap, swipe), or began, changed, ended, cancelled (the others).")
    var state: String?

    @OptionGroup var connection: SocketOption

    func run() throws {
        var request: [(String, JSONValue)] = [("gesture", .string(gesture))]
        if let state { request.append(("state", .string(state))) }
        let reply = try connection.connect().request(.trigger, request)
        let actions = reply["actions"]?.intValue ?? 0
        print("\(gesture) \(reply["state"]?.stringValue ?? "?"): \(actions) action\(actions == 1 ? "" : "s") started")
        if let mode = reply["mode"] { print("mode: \(mode.stringValue ?? "none")") }
        if let note = reply["note"]?.stringValue { print(note) }
    }
}
