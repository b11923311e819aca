import TestSupport
import Testing
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl play REC | gestured --stream - --desc REC`: the path without a touchscreen,
/// with the shipped tools only.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct PlayTests {
    /// The taps recording played into a daemon's standard input at its recorded pace gives
    /// the gestures `gesturectl replay` finds in it; the recording is its own description;
    /// the pipe's end detaches the device; a panel with `passthrough = true` says why it is
    /// not grabbed.
    @Test func aRecordingPlayedIntoTheStreamIsRecognizedAsReplayed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan() + "[[device]]\nname = \"*\"\npassthrough = true\n", to: config)
        let expected = try replayJSON(config: config, recording: Recording.taps, dir: dir)
        try #require(expected.count == 9)

        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        // Close-on-exec (pipe2 is not in Glibc's module): only the children given an end hold it.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let daemon = try GesturedProcess(
            config: config, dir: dir, arguments: ["--stream", "-", "--desc", Recording.taps], standardInput: ends[0])
        close(ends[0])
        let subscriber = try daemon.client()
        _ = try subscriber.request(.subscribe)
        let device = try daemon.status().devices.first
        #expect(device?.delivery == nil, "\(String(describing: device))")
        #expect(device?.grabImpossible == "not possible: the input is a stream, not a device", "\(String(describing: device))")

        // The pipe's write end goes to gesturectl alone, as its standard output.
        let played = try play(Recording.taps, into: ends[1], errors: dir.file("play.err"))
        close(ends[1])
        #expect(played == 0, "\(readText(dir.file("play.err")) ?? "")")
        let streamed = try readEvents(subscriber, count: expected.count)
        #expect(streamed.map(\.withoutTime) == expected.map(\.withoutTime))
        #expect(eventually { daemon.log.contains("stream: end of -; the device is detached") }, "\(daemon.log)")
        try daemon.stop()
    }

    /// Binary records are not written to a terminal; `--describe` prints a description
    /// gestured reads; a missing recording is named.
    @Test func theDescriptionAndTheErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let described = try runTool(Binary.gesturectl, ["play", "--describe", Recording.taps], dir: dir)
        #expect(described.status == 0, "\(described)")
        let info = try EvemuRecording.parse(described.stdout, path: "described").info
        let recorded = try EvemuRecording.read(path: Recording.taps).info
        #expect(info == recorded)

        let missing = try runTool(Binary.gesturectl, ["play", dir.file("none.evemu")], dir: dir)
        #expect(missing.status != 0 && missing.stderr.contains("none.evemu"), "\(missing)")

        var terminal: Int32 = -1
        var follower: Int32 = -1
        try #require(openpty(&terminal, &follower, nil, nil, nil) == 0)
        defer { close(terminal) }
        let status = try play(Recording.taps, into: follower, errors: dir.file("err"))
        close(follower)
        #expect(status != 0)
        #expect(readText(dir.file("err"))?.contains("standard output is a terminal") == true, "\(readText(dir.file("err")) ?? "")")
    }

    /// Runs `gesturectl play RECORDING` with `output` as its standard output and its errors
    /// in the file `errors`; its exit status.
    private func play(_ recording: String, into output: Int32, errors: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let words: [String] = [Binary.gesturectl, "play", recording]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        try #require(posix_spawn(&pid, Binary.gesturectl, &actions, nil, argv, environ) == 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }
}
