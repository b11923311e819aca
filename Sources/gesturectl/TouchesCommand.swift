import ArgumentParser
import GestureCore
import Glibc
import JSONOutput
import LibinputRecord
import TouchInput

/// `gesturectl touches RECORDING`: the normalized frames of an evemu recording, one line each.
struct TouchesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touches",
        abstract: "Print the normalized touch frames of an evemu or libinput record recording, one line per frame.")

    @OptionGroup var input: RecordingArgument
    private var recording: String { input.recording }

    @Flag(help: "Print only totals: events, frames, contacts, most simultaneous contacts, duration.")
    var summary = false

    @Flag(help: "One JSON object per frame: {\"time\": µs, \"touches\": [{\"id\", \"slot\", \"phase\", \"x\", \"y\", ...}]}.")
    var json = false

    func run() throws {
        let recorded = try input.read()
        guard let normalizer = TouchNormalizer(device: DeviceID(0), info: recorded.info) else {
            throw ValidationError("\(recording): libmtdev could not be set up for this protocol-A device")
        }
        var warned = TouchNormalizer.Counters()
        var totals = (contacts: 0, simultaneous: 0)
        for event in recorded.events {
            if normalizer.feed(event) {
                let contacts = normalizer.frame.contacts
                if summary {
                    totals.contacts += contacts.count { $0.phase == .began }
                    totals.simultaneous = max(totals.simultaneous, contacts.count { !$0.phase.isTerminal })
                } else {
                    print(json ? FrameFormatter.json(normalizer.frame) : FrameFormatter.text(normalizer.frame))
                }
            }
            warn(about: normalizer.counters, after: &warned, at: event)
        }
        if summary {
            let duration = recorded.events.last?.time ?? 0
            let line =
                json
                ? "{\"events\":\(recorded.events.count),\"frames\":\(normalizer.counters.frames),\"contacts\":\(totals.contacts),"
                    + "\"maxSimultaneous\":\(totals.simultaneous),\"duration\":\(duration)}"
                : "\(recorded.events.count) events, \(normalizer.counters.frames) frames, \(totals.contacts) contacts, "
                    + "at most \(totals.simultaneous) at once, \(JSONText.fixed(Double(duration) / 1e6, decimals: 3)) s"
            print(line)
        }
    }

    /// Says once per kind what the normalizer had to ignore or recover from.
    private func warn(about counters: TouchNormalizer.Counters, after warned: inout TouchNormalizer.Counters, at event: RawInputEvent) {
        if counters.outOfRangeSlots > warned.outOfRangeSlots && warned.outOfRangeSlots == 0 {
            printError(
                "warning: \(recording): ABS_MT_SLOT \(event.value) at \(event.time) µs is outside the device's "
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
