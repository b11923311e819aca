import GestureCore
import TestSupport
import Testing
import TouchInput

@testable import GestureConfig

/// The shipped config on real touchscreens (../shared/recordings), through the normalizer
/// and the engine as the daemon runs them.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct ShippedConfigReplayTests {
    static let ghostBursts = "hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu"

    /// Replays `file` through an engine running `configuration` (the panel unmapped: no rule
    /// of the shipped config names it, so it covers the whole screen).
    func replay(_ file: String, _ configuration: Configuration) throws -> PipelineHarness {
        let recording = try EvemuRecording.read(path: SharedRecordings.path(file))
        let harness = PipelineHarness(model: configuration.model)
        harness.attach(device: DeviceID(1), name: recording.info.name, x: recording.info.x, y: recording.info.y)
        let normalizer = try #require(TouchNormalizer(device: DeviceID(1), info: recording.info))
        var frames: [TouchFrame] = []
        for event in recording.events where normalizer.feed(event) { frames.append(normalizer.frame) }
        harness.run(frames)
        harness.settle()
        return harness
    }

    /// 127 bursts of 1-10 contacts lasting 32-56 ms, many on the edges: nothing fires.
    @Test func ghostTouchBurstsRecognizeNothing() throws {
        let configuration = try ConfigLoader.load(path: Fixture.shippedConfigPath)
        let harness = try replay(Self.ghostBursts, configuration)
        #expect(harness.warnings.isEmpty)  // res 64/114 per mm: physical units
        #expect(harness.events.isEmpty, "\(harness.log)")
        // The gestures did see the ghosts: the wake tap refused them as too short.
        #expect(harness.traceLog.contains { $0.hasPrefix("[wake_corner/wake] possible -> failed (held ") })
    }

    /// The same bursts with the wake tap's min_press gone and the tap on the whole screen:
    /// ghosts become taps, so it is min_press that protects the kiosk.
    @Test func withoutMinPressTheBurstsAreTaps() throws {
        let text = try FileText.read(path: Fixture.shippedConfigPath)
            .replacing("min_press = \"60ms\"", with: "")
            .replacing("view = \"wake_corner\"\ntaps = 2", with: "taps = 1")
        let harness = try replay(Self.ghostBursts, try ConfigLoader.parse(text: text, file: "unguarded.toml"))
        #expect(harness.log.contains("wake recognized"))
    }
}
