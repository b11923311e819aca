import ArgumentParser
import GestureDaemon

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
            CheckCommand.self,
            DevicesCommand.self,
            TouchesCommand.self,
            ReplayCommand.self,
            RecordCommand.self,
            RenderCommand.self,
        ]
    )
}
