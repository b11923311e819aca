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
    func replay(_ file: String, desc: String? = nil, _ configuration: Configuration) throws -> PipelineHarness {
        let recording = try EvemuRecording.read(path: SharedRecordings.path(file), descPath: desc.map(SharedRecordings.path))
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

    /// A real two-finger recording and how often the map's pinch and rotation begin on it.
    struct TwoFingers: CustomStringConvertible, Sendable {
        var file: String
        var desc: String? = nil
        var zooms: Int
        var rotations: Int
        var description: String { file }
    }

    /// Every recording with two fingers on the map. On each, the first finger moves a few
    /// millimetres before the second lands and begins the pan; the pinch and the rotation
    /// then begin beside it (simultaneous_with) instead of failing "prevented by map_pan"
    /// (before: no zoom and no rotation on the elan, egalax and stantum, none in the nexus4's
    /// and the dell's staggered phases). Phases whose first finger lands in the menu column
    /// (x < 25%) reach the map with one finger only and pan it: hit-testing, as UIKit's.
    static let twoFingerRecordings = [
        TwoFingers(file: "hid-devices-elan-04f3-200a-drag-pinch-out-rotate-10finger.evemu", zooms: 1, rotations: 2),
        TwoFingers(file: "hid-devices-egalax-0eef-72fa-drag-pinch-in-rotate-4finger.evemu", zooms: 1, rotations: 1),
        TwoFingers(file: "hid-devices-stantum-1f87-0002-pinch-rotate-10finger.evemu", zooms: 0, rotations: 1),
        TwoFingers(file: "hid-devices-lg-1fd2-0064-slow-pinch-2slot.evemu", zooms: 1, rotations: 1),
        TwoFingers(
            file: "nexus4-touch_dev-1-2-3-4-finger.events", desc: "nexus4-touch_dev.desc", zooms: 2, rotations: 2),
        TwoFingers(file: "dell-canvas-advanced-silicon-touch-2-4-5-finger.evemu", zooms: 0, rotations: 2),
    ]

    @Test(arguments: twoFingerRecordings)
    func theMapZoomsAndRotatesBesideItsPan(_ recording: TwoFingers) throws {
        let configuration = try ConfigLoader.load(path: Fixture.shippedConfigPath)
        let harness = try replay(recording.file, desc: recording.desc, configuration)
        let prevented = harness.traceLog.filter { $0.contains("(prevented by map_pan)") && $0.hasPrefix("[map/map_") }
        #expect(prevented.isEmpty, "\(prevented)")
        #expect(harness.events(of: "map_zoom").filter { $0.state == .began }.count == recording.zooms)
        #expect(harness.events(of: "map_rotate").filter { $0.state == .began }.count == recording.rotations)
    }

    /// The rule that makes it so: without the pan's simultaneity, the elan's staggered pinch
    /// pans the map and neither zooms nor rotates it.
    @Test func withoutSimultaneityThePanPreventsThePinch() throws {
        let text = try FileText.read(path: Fixture.shippedConfigPath)
            .replacing("simultaneous_with = [\"map_zoom\", \"map_rotate\"]\n", with: "")
        let harness = try replay(Self.twoFingerRecordings[0].file, try ConfigLoader.parse(text: text, file: "exclusive.toml"))
        #expect(harness.traceLog.contains { $0.hasSuffix("[map/map_zoom] possible -> failed (prevented by map_pan)") })
        #expect(harness.events(of: "map_zoom").isEmpty)
        #expect(harness.events(of: "map_rotate").isEmpty)
    }
}
