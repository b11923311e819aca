import ArgumentParser
import GestureCore
import Glibc
import TouchInput

/// `gesturectl touches RECORDING`: the normalized frames of an evemu recording, one line each.
struct TouchesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touches",
        abstract: "Print the normalized touch frames of an evemu recording, one line per frame.")

    @Argument(help: "An evemu recording (evemu-record output, or an events-only file with --desc).")
    var recording: String

    @Option(help: "The device description (.desc) for a recording without N:/I:/B:/A: lines.")
    var desc: String?

    @Flag(help: "One JSON object per frame: {\"time\": µs, \"touches\": [{\"id\", \"slot\", \"phase\", \"x\", \"y\", ...}]}.")
    var json = false

    func run() throws {
        let recorded = try EvemuRecording.read(path: recording, descPath: desc)
        guard let normalizer = TouchNormalizer(device: DeviceID(0), info: recorded.info) else {
            throw ValidationError("\(recording): libmtdev could not be set up for this protocol-A device")
        }
        var warned = TouchNormalizer.Counters()
        for event in recorded.events {
            if normalizer.feed(event) {
                print(json ? FrameFormatter.json(normalizer.frame) : FrameFormatter.text(normalizer.frame))
            }
            warn(about: normalizer.counters, after: &warned, at: event)
        }
    }

    /// Says once per kind what the normalizer had to ignore or recover from.
    private func warn(about counters: TouchNormalizer.Counters, after warned: inout TouchNormalizer.Counters, at event: RawInputEvent) {
        if counters.outOfRangeSlots > warned.outOfRangeSlots && warned.outOfRangeSlots == 0 {
            printError("warning: \(recording): ABS_MT_SLOT \(event.value) at \(event.time) µs is outside the device's "
                + "slots; its events are ignored (later ones are only counted)")
        }
        if counters.synDropped > warned.synDropped {
            printError("warning: \(recording): SYN_DROPPED at \(event.time) µs: contacts lost in the gap are cancelled")
        }
        warned = counters
    }
}

/// Writes a line to standard error (fd 2; the C `stderr` global is not concurrency-safe).
func printError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}
