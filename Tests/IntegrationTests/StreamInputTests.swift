import ActionDispatch
import GestureControl
import SystemLoop
import TestSupport
import Testing
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// `gestured --stream`: raw `struct input_event` records from a pipe, as a device node
/// gives them.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct StreamInputTests {
    /// A recording's events as a kernel's evdev node delivers them: 24-byte records.
    private func records(_ events: ArraySlice<RawInputEvent>) -> [UInt8] {
        var bytes: [UInt8] = []
        for event in events { event.append(to: &bytes) }
        return bytes
    }

    /// A temporary directory with the tap-and-pan config and the description of the taps
    /// recording's device; the recording.
    private func setUp() throws -> (dir: TemporaryDirectory, config: String, desc: String, recording: EvemuRecording) {
        let dir = try TemporaryDirectory()
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let recording = try EvemuRecording.read(path: Recording.taps)
        let desc = dir.file("device.desc")
        try EvemuRecording(info: recording.info, events: []).write(to: desc)
        return (dir, config, desc, recording)
    }

    /// Nine taps written into a named pipe at their recorded pace (one record arriving in two
    /// pieces) are the nine taps that `gesturectl replay` finds in the recording.
    @Test func aNamedPipeAtTheRecordedPace() throws {
        let (dir, config, desc, recording) = try setUp()
        defer { dir.remove() }
        let expected = try replayJSON(config: config, recording: Recording.taps, dir: dir)
        try #require(expected.count == 9)
        let fifo = dir.file("events")
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        defer { close(writer) }

        let daemon = try GesturedProcess(config: config, dir: dir, arguments: ["--stream", fifo, "--desc", desc])
        let subscriber = try daemon.client()
        _ = try subscriber.request(.subscribe)
        let status = try daemon.status()
        #expect(status.devices.first?.path == fifo, "\(status)")
        // One write per frame (SYN_REPORT), at its recorded time (real time: the daemon reads
        // the pipe paced as a device would deliver it).
        let start = MonotonicClock.now()
        var first = 0
        for (index, event) in recording.events.enumerated() where event.type == 0 && event.code == 0 {
            let due = start + event.time
            let wait = due - MonotonicClock.now()
            if wait > 0 { usleep(UInt32(wait)) }
            let bytes = records(recording.events[first...index])
            // The first frame in two writes, cut inside a record: the daemon reads a piece.
            let cut = first == 0 ? 10 : 0
            if cut > 0 {
                #expect(write(writer, bytes, cut) == cut)
                usleep(20_000)
            }
            let rest = Array(bytes[cut...])
            #expect(write(writer, rest, rest.count) == rest.count)
            first = index + 1
        }
        let streamed = try readEvents(subscriber, count: expected.count)
        #expect(streamed.map(\.withoutTime) == expected.map(\.withoutTime))
        try daemon.stop()
    }

    /// A stream or description that cannot be read stops the start with the reason and the
    /// path, and leaves no socket.
    @Test func anUnreadableStreamOrDescriptionSaysWhich() throws {
        let (dir, config, desc, _) = try setUp()
        defer { dir.remove() }
        let missing = dir.file("no-such-pipe")
        let noStream = try runTool(
            Binary.gestured,
            [
                "--config", config, "--socket", dir.file("s.sock"),
                "--stream", missing, "--desc", desc,
            ], dir: dir)
        #expect(
            noStream.status == 1 && noStream.stderr.contains(missing) && noStream.stderr.contains("No such file"),
            "\(noStream)")
        let noDesc = try runTool(
            Binary.gestured,
            [
                "--config", config, "--socket", dir.file("s.sock"),
                "--stream", "-", "--desc", dir.file("no.desc"),
            ], dir: dir)
        #expect(noDesc.status == 1 && noDesc.stderr.contains("no.desc"), "\(noDesc)")
        #expect(access(dir.file("s.sock"), F_OK) != 0)
    }

    /// A protocol-A device fed EV_ABS codes it does not advertise (above ABS_MAX libmtdev
    /// indexed its table with and crashed: exit 139): they are dropped and counted, and a
    /// contact after them is still recognized as a tap.
    @Test func unadvertisedCodesOnAProtocolADeviceAreDroppedAndCounted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let desc = dir.file("a.desc")
        try writeText(
            "N: protoA\nI: 0003 0000 0000 0000\nP: 02\nB: 00 0b\nB: 03 03 00 00 00 00 00 60\n"
                + "A: 00 0 799 0 0 0\nA: 01 0 479 0 0 0\nA: 35 0 799 0 0 0\nA: 36 0 479 0 0 0\n", to: desc)
        var events: [RawInputEvent] = []
        for code: UInt16 in [0x61, 0x60, 0x100, 0xc3a0, 0x40, 0x48] {
            events += [RawInputEvent(type: 3, code: code, value: 1, time: 0), RawInputEvent(type: 0, code: 0, value: 0, time: 0)]
        }
        events += [RawInputEvent(type: 1, code: 0x14a, value: 1, time: 0)]  // BTN_TOUCH: not advertised either
        let stream = dir.file("a.bin")
        let file = try #require(fopen(stream, "w"), "cannot open \(stream)")
        let bytes = records(events[...])
        _ = fwrite(bytes, 1, bytes.count, file)
        fclose(file)
        let daemon = try GesturedProcess(config: config, dir: dir, arguments: ["--stream", stream, "--desc", desc])
        #expect(eventually { daemon.log.contains("the device is detached") }, "\(daemon.log)")
        let status = try daemon.status()
        #expect(status.refused[RefusalMetrics.unadvertisedEvents] == 7, "\(status)")
        try daemon.stop()
    }

    /// At the end of the stream the device is detached and the daemon goes on.
    @Test func theEndOfStandardInputDetachesTheDevice() throws {
        let (dir, config, desc, _) = try setUp()
        defer { dir.remove() }
        // GesturedProcess gives the daemon /dev/null as standard input: it ends at once.
        let daemon = try GesturedProcess(config: config, dir: dir, arguments: ["--stream", "-", "--desc", desc])
        #expect(eventually { daemon.log.contains("stream: end of -; the device is detached") }, "\(daemon.log)")
        #expect(try daemon.status().devices.isEmpty)
        try daemon.stop()
    }
}
