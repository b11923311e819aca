import ArgumentParser
import LibinputRecord
import TouchInput

/// `--desc FILE`, shared by the verbs that read a recording (touches, replay, render).
struct DescOption: ParsableArguments {
    @Option(help: ArgumentHelp("The device description (.desc) for a recording without N:/I:/B:/A: lines.", valueName: "file"))
    var desc: String?

    /// The recording at `path` (evemu, events only with the description, or libinput record).
    func read(_ path: String) throws -> EvemuRecording { try RecordingFile.read(path: path, descPath: desc) }
}

/// The `RECORDING` argument and its `--desc`, shared by the verbs that take a recording as
/// their only argument (touches, play).
struct RecordingArgument: ParsableArguments {
    @Argument(help: "A recording: evemu-record output (or an events-only file with --desc), or a libinput record file (YAML).")
    var recording: String

    @OptionGroup var description: DescOption

    func read() throws -> EvemuRecording { try description.read(recording) }
}
