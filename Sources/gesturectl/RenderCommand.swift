import ArgumentParser
import GestureConfig
import GestureControl
import GestureCore
import GesturePicture
import LibinputRecord
import LinuxSystem
import TouchInput

/// `gesturectl render CONFIG`: the config as a picture, optionally with what a recording
/// did on it.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a config's screen, views and gestures (and a recording's touches and outcomes) as SVG or PNG.",
        discussion: """
            The screen is drawn to scale with every view, the gestures on it, edge-pan \
            margins, should_begin / should_receive_touch regions and devices' outputs; the \
            legend lists each gesture's key parameters. With --recording, each contact is a \
            trace (a tick every 50 ms) and each gesture outcome a mark, from the same \
            pipeline as `replay`; hover a mark in a browser for the failure reason. PNG \
            needs rsvg-convert (Debian: librsvg2-bin).
            """)

    @Argument(help: ArgumentHelp("The config file (or --config FILE); its drop-ins are read too.", valueName: "config"))
    var file: String?

    @Option(name: .customLong("config"), help: ArgumentHelp("The config file, as the argument names it.", valueName: "file"))
    var configOption: String?

    var config: String { configOption ?? file ?? "" }

    @OptionGroup var dropIns: ConfigDirectoryOptions

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Where to write: a .svg or .png file (default: SVG on standard output).", valueName: "file")
    )
    var output: String?

    @Option(help: ArgumentHelp("A recording to draw over the config: evemu or libinput record (YAML).", valueName: "file"))
    var recording: String?

    @OptionGroup var description: DescOption

    @Flag(
        help: ArgumentHelp(
            "Draw the views where the running daemon has them now and its gestures as they are on or off "
                + "(after set and the mode), from its status; the config gives the rest."))
    var live = false

    @Option(help: ArgumentHelp("With --live: the daemon's control socket (default: as the other verbs find it).", valueName: "path"))
    var socket: String?

    func validate() throws {
        if file != nil, configOption != nil { throw ValidationError("name the config once: --config FILE or CONFIG") }
        if file == nil, configOption == nil { throw ValidationError("missing the config: render CONFIG or render --config FILE") }
        if let output, !(output.hasSuffix(".svg") || output.hasSuffix(".png")) {
            throw ValidationError("--output must end in .svg or .png: \(output)")
        }
        if description.desc != nil, recording == nil { throw ValidationError("--desc goes with --recording") }
        if socket != nil, !live { throw ValidationError("--socket goes with --live") }
    }

    /// The running daemon's views and gestures over `configuration`: frames and `enabled`
    /// from its status, by name (a name the daemon does not have stays as configured).
    func liveConfiguration(_ configuration: Configuration) throws -> Configuration {
        let environment = ProcessEnvironment.current()
        let client = try ControlClient(
            candidates: ControlSocketPath.candidates(option: socket, configured: configuration.daemon.socketPath, environment: environment))
        var configuration = configuration
        configuration.apply(DaemonStatus(json: try client.request(.status)))
        return configuration
    }

    func run() throws {
        var configuration = try loadConfiguration(dropIns.tree(mainFile: config))
        if live { configuration = try liveConfiguration(configuration) }
        var overlay: RecordingOverlay?
        if let recording {
            let recorded = try description.read(recording)
            guard let replayed = RecordingOverlay(configuration: configuration, recording: recorded, path: recording) else {
                throw CommandFailure("\(recording): libmtdev could not be set up for this protocol-A device")
            }
            if let warning = replayed.warning { printError("warning: " + warning) }
            overlay = replayed
        }
        let svg = Picture(configuration: configuration, title: config, recording: overlay).svg
        do {
            switch output {
            case nil: print(svg, terminator: "")
            case let path? where path.hasSuffix(".png"): try Rasterizer.png(svg: svg, to: path)
            case let path?: try WholeFile.write(svg, to: path)
            }
        } catch let failure as Rasterizer.Failure {
            throw CommandFailure(failure.description)
        } catch let failure as SystemError {
            throw CommandFailure(failure.description)
        }
    }
}
