import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl replay` on real recordings against checked-in event logs (`Goldens/`, made
/// with `gesturectl replay --json --config Goldens/test.toml RECORDING`; after a deliberate
/// change of behaviour, regenerate them the same way and review the diff).
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct ReplayGoldenTests {
    static let cases: [(golden: String, recording: String)] = [
        ("taps.jsonl", Recording.taps),
        ("two-finger-tap.jsonl", Recording.twoFingerTap),
        ("pixel-flick.jsonl", Recording.flick),
    ]

    @Test(arguments: cases.indices)
    func matchesGolden(_ index: Int) throws {
        let (golden, recording) = Self.cases[index]
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try runTool(Binary.gesturectl, ["replay", "--json", "--config", TestConfig.goldenPath, recording], dir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let expected = try #require(readText(TestConfig.goldensDirectory + "/" + golden))
        #expect(run.stdout == expected)
    }

    /// The 46 s pinch recording gives over a thousand events: its golden keeps every line
    /// that is not `changed`, and every 50th `changed` line.
    @Test func pinchDigest() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try runTool(Binary.gesturectl, ["replay", "--json", "--config", TestConfig.goldenPath, Recording.pinch], dir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        var changed = 0
        let digest = run.stdout.split(separator: "\n").filter { line in
            guard line.contains("\"state\":\"changed\"") else { return true }
            changed += 1
            return changed % 50 == 1
        }.map { $0 + "\n" }.joined()
        let expected = try #require(readText(TestConfig.goldensDirectory + "/pinch-digest.jsonl"))
        #expect(digest == expected)
        #expect(digest.contains("\"gesture\":\"zoom\",\"type\":\"pinch\",\"state\":\"began\""))
    }

    /// The readable format says the same as the JSON, one line per event; --trace adds the
    /// transitions; actions run only with --run-actions.
    @Test func readableTraceAndActions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let log = dir.file("commands.log")
        try writeText(TestConfig.tapAndPan(tapActions: ["command = 'echo \"$GESTURE_NAME $GESTURE_TIME\" >> \(log)'"]), to: config)
        let json = try replayJSON(config: config, recording: Recording.taps, dir: dir)
        #expect(access(log, F_OK) != 0, "actions ran without --run-actions")

        let text = try runTool(Binary.gesturectl, ["replay", "--config", config, Recording.taps], dir: dir)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == json.count && lines.allSatisfy { $0.contains("screen/tap tap recognized") }, "\(text.stdout)")

        let traced = try runTool(Binary.gesturectl, ["replay", "--trace", "--config", config, Recording.taps], dir: dir)
        #expect(traced.stdout.contains("[screen/tap] possible -> recognized"), "\(traced.stdout)")
        #expect(traced.stdout.split(separator: "\n").count > json.count)

        let acted = try runTool(Binary.gesturectl, ["replay", "--run-actions", "--config", config, Recording.taps], dir: dir)
        #expect(acted.status == 0, "\(acted.stderr)")
        // Each command saw its event's time (seconds since the first recorded event).
        let times = (readText(log) ?? "").split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        #expect(times.sorted() == json.compactMap { $0["t"]?.doubleValue })
    }
}
