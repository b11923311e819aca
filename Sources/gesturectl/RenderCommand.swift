import ArgumentParser
import GestureConfig
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

    @Argument(help: "The config file (its drop-ins are read too).")
    var config: String

    @OptionGroup var dropIns: ConfigDirectoryOptions

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Where to write: a .svg or .png file (default: SVG on standard output).", valueName: "file")
    )
    var output: String?

    @Option(help: ArgumentHelp("A recording to draw over the config: evemu or libinput record (YAML).", valueName: "file"))
    var recording: String?

    @Option(help: ArgumentHelp("The device description for a recording without N:/I:/B:/A: lines.", valueName: "file"))
    var desc: String?

    func validate() throws {
        if let output, !(output.hasSuffix(".svg") || output.hasSuffix(".png")) {
            throw ValidationError("--output must end in .svg or .png: \(output)")
        }
        if desc != nil, recording == nil { throw ValidationError("--desc goes with --recording") }
    }

    func run() throws {
        let configuration = try loadConfiguration(dropIns.tree(mainFile: config))
        var overlay: RecordingOverlay?
        if let recording {
            let recorded = try RecordingFile.read(path: recording, descPath: desc)
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
