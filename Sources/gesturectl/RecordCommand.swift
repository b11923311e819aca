import ActionDispatch
import ArgumentParser
import GestureCore
import SystemLoop
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl record`: an evemu recording from a live touchscreen.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a touchscreen's events as an evemu file (Ctrl-C ends it).",
        discussion: "The file replays with 'gesturectl replay' and 'evemu-play'. Times start at the first event.")

    @Argument(help: "The device node (default: the first touchscreen).")
    var device: String?

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "s"))
    var duration: Double?

    func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds") }
    }

    func run() throws {
        let path = try device ?? firstTouchscreen()
        let evdev = try EvdevDevice(path: path)
        let loop = try EventLoop()
        var events: [RawInputEvent] = []
        try loop.register(fd: evdev.fd) { _ in
            do {
                if try evdev.read(into: &events) == .removed {
                    printError("\(path): the device is gone; writing what was recorded")
                    loop.stop()
                }
            } catch {
                printError("\(error)")
                loop.stop()
            }
        }
        // Ctrl-C ends the recording, not the process: the file is still written.
        try loop.watchSignals([SIGINT, SIGTERM]) { _ in loop.stop() }
        if let duration {
            loop.onDeadline = { loop.stop() }
            try loop.setDeadline(loop.now() + Microseconds(duration * 1_000_000))
        }
        printError("recording \(path) \"\(evdev.info.name)\"\(duration.map { " for \($0) s" } ?? ""); Ctrl-C ends it")
        try loop.run()
        let first = events.first?.time ?? 0
        let recording = EvemuRecording(
            info: evdev.info,
            events: events.map {
                var event = $0
                event.time -= first
                return event
            })
        if let output {
            try recording.write(to: output)
            printError("\(events.count) events written to \(output)")
        } else {
            print(recording.serialized(), terminator: "")
        }
    }

    private func firstTouchscreen() throws -> String {
        let devices = try TouchscreenDiscovery().inputDevices()
        guard let touchscreen = devices.first(where: \.isTouchscreen) else {
            throw CommandFailure("no touchscreen found: " + DevicesCommand.whyNoTouchscreen(inputDevices: devices.count))
        }
        return touchscreen.devnode
    }
}
