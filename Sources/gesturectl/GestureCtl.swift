import ArgumentParser
import GestureControl

/// `gesturectl`: ask the daemon what it is doing, check configs, replay recordings.
@main
struct GestureCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturectl",
        abstract: "Control and inspect the gestured touchscreen gesture daemon.",
        version: GesturedVersion.current,
        subcommands: [
            StatusCommand.self,
            MetricsCommand.self,
            MonitorCommand.self,
            ReloadCommand.self,
            TriggerCommand.self,
            SetCommand.self,
            ModeCommand.self,
            ResetCommand.self,
            CheckCommand.self,
            DevicesCommand.self,
            TouchesCommand.self,
            ReplayCommand.self,
            RecordCommand.self,
            PlayCommand.self,
            RenderCommand.self,
        ]
    )

    /// The options any verb that takes them accepts before the verb too
    /// (`gesturectl --socket /tmp/g.sock monitor`), as the daemon's own page writes it.
    static let globalOptions = ["--socket", "--config"]

    /// `--socket PATH` and `--config FILE` (or `--socket=PATH`) before the verb move after it.
    static func verbFirst(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if globalOptions.contains(where: { first.hasPrefix($0 + "=") }) {
                leading.append(first)
                rest = rest.dropFirst()
            } else if globalOptions.contains(first), rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        guard !leading.isEmpty, let verb = rest.first else { return arguments }
        return [verb] + leading + rest.dropFirst()
    }

    static func main() {
        do {
            var command = try parseAsRoot(verbFirst(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
