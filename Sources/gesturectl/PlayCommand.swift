import ActionDispatch
import ArgumentParser
import LinuxSystem
import SystemLoop
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl play RECORDING`: a recording's events as a touchscreen gives them
/// (`struct input_event` records) on standard output, for `gestured --stream -`.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Write a recording's events to standard output as a touchscreen gives them, for gestured --stream.",
        discussion: """
            The records are 24-byte struct input_event, paced at the recorded times (as \
            the panel sent them) unless --fast: \
            gesturectl play REC | gestured --stream - --desc DESC. An evemu recording is \
            its own DESC; --describe prints the description of any recording (libinput \
            record too) as evemu text. Standard output must not be a terminal.
            """)

    @OptionGroup var input: RecordingArgument
    private var recording: String { input.recording }

    @Flag(help: "Write every event at once instead of at the recorded times.")
    var fast = false

    @Flag(help: "Print the recording's device description (evemu text, for gestured --desc) instead of its events.")
    var describe = false

    func run() throws {
        let recorded = try input.read()
        if describe {
            print(EvemuRecording(info: recorded.info, events: []).serialized(), terminator: "")
            return
        }
        guard isatty(1) == 0 else {
            throw CommandFailure(
                "standard output is a terminal; pipe the binary records of \(recording) to gestured: "
                    + "gesturectl play \(recording) | gestured --stream - --desc DESC")
        }
        // A reader that goes away ends the play with EPIPE, not a signal.
        signal(SIGPIPE, SIG_IGN)
        let start = MonotonicClock.now()
        var batch: [UInt8] = []
        for event in recorded.events {
            event.append(to: &batch)
            // A frame goes out whole, when it was recorded: SYN_REPORT ends it.
            guard event.type == InputCodes.evSyn, event.code == InputCodes.synReport else { continue }
            if !fast { Self.sleep(until: start + event.time) }
            try write(batch)
            batch.removeAll(keepingCapacity: true)
        }
        try write(batch)
    }

    private static func sleep(until deadline: Int64) {
        let wait = deadline - MonotonicClock.now()
        if wait > 0 { usleep(UInt32(min(wait, 1_000_000_000))) }
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                retryingInterrupted { Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            guard count > 0 else { throw CommandFailure("\(recording): \(SystemError("write", "standard output"))") }
            offset += count
        }
    }
}
