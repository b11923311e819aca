import DaemonTestSupport
import GestureConfig
import GestureCore
import Logging
import TestSupport
import Testing
import TouchInput
import TouchPipeline

@testable import ActionDispatch
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// `GesturePipeline` on real recordings: what the daemon does when a device goes, when the
/// config is swapped mid-gesture, at the end of a replay, and how `[[device]]` rules map.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct PipelineTests {
    static let drag = "atmel-maxtouch-1-finger-drag-up-down.evemu"
    static let taps = "atmel-maxtouch-1-finger-fast-taps.evemu"

    static let base = """
        [screen]
        width = 800
        height = 480

        [gesture.drag]
        type = "pan"

        """

    /// A pipeline on `config` with the recording's device attached; its events up to the
    /// first `.changed` of the drag (a gesture under way), fed.
    private func midDrag(_ config: String) throws -> (GesturePipeline, EvemuRecording, Int64) {
        let configuration = try ConfigLoader.parse(text: config, file: "test.toml")
        let recording = try EvemuRecording.read(path: SharedRecordings.path(Self.drag))
        let pipeline = GesturePipeline(configuration: configuration)
        let (id, _) = try #require(pipeline.addDevice(recording.info))
        let index = try #require(pipeline.index(of: id))
        var last: Int64 = 0
        var seen = OutputRecorder()
        for event in recording.events {
            pipeline.feed(event, device: index)
            last = event.time
            pipeline.drain(into: &seen)
            if seen.events.contains(where: { $0.state == .changed }) { break }
        }
        try #require(seen.events.first?.state == .began)
        return (pipeline, recording, last)
    }

    /// A device unplugged mid-drag: the pan is cancelled at that moment, and the
    /// dispatcher runs the `cancelled` actions (the daemon hands it exactly these events).
    @Test func deviceLostMidGestureCancelsAndRunsCancelledActions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.file("cancelled")
        let (pipeline, _, last) = try midDrag(
            Self.base + """
                [gesture.drag.on.cancelled]
                command = 'echo "$GESTURE_NAME $GESTURE_STATE" > \(out)'
                """)
        let id = pipeline.devices[0].id
        pipeline.removeDevice(id, at: last + 5_000)
        #expect(pipeline.devices.isEmpty)
        let events = pipeline.drained().events
        #expect(events.map(\.state) == [.cancelled])
        #expect(events.first?.time == last + 5_000)
        #expect(pipeline.engine.snapshot().contacts == 0)

        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: pipeline.configuration, origin: 0, logger: Logger(label: "test"))
        for event in events { dispatcher.dispatch(event) }
        #expect(try serve(loop) { dispatcher.runningChildren == 0 && readText(out) != nil })
        #expect(readText(out) == "drag cancelled\n")
    }

    /// A reload that changes the running gesture cancels it; the events of the swap carry
    /// the old model's indices.
    @Test func reloadMidGestureCancelsAChangedGestureUnderItsOldName() throws {
        let (pipeline, _, last) = try midDrag(Self.base)
        let previous = pipeline.configuration
        let changed = try ConfigLoader.parse(
            text: """
                [screen]
                width = 800
                height = 480

                [gesture.hold]
                type = "long-press"

                [gesture.drag]
                type = "pan"
                max_touches = 1
                """, file: "new.toml")
        pipeline.reload(changed, at: last + 1_000)
        let events = pipeline.drained().events
        #expect(events.map(\.state) == [.cancelled])
        let names = GestureNames(model: previous.model)
        #expect(events.map { names.gesture($0.gesture) } == ["drag"])
        #expect(pipeline.configuration.model.gestures.map(\.name) == ["hold", "drag"])

        // An unchanged gesture keeps running through a reload.
        let (running, _, later) = try midDrag(Self.base)
        running.reload(try ConfigLoader.parse(text: Self.base + "\n[gesture.tap]\ntype = \"tap\"\n", file: "same.toml"), at: later + 1_000)
        #expect(running.drained().events.isEmpty)
        #expect(running.engine.snapshot().gestures[0].state == .changed)
    }

    /// At the end of a replay a tap that waits for a double tap to fail is still reported,
    /// when the double tap's timer would have fired.
    @Test func finishRunsPendingTimers() throws {
        let configuration = try ConfigLoader.parse(
            text: """
                [screen]
                width = 800
                height = 480

                [gesture.single]
                type = "tap"
                require_to_fail = ["double"]

                [gesture.double]
                type = "tap"
                taps = 2
                """, file: "test.toml")
        let recording = try EvemuRecording.read(path: SharedRecordings.path(Self.taps))
        let pipeline = GesturePipeline(configuration: configuration)
        let replay = try #require(VirtualReplay(recording: recording, pipeline: pipeline))
        var recorder = OutputRecorder()
        replay.run(into: &recorder)
        let events = recorder.events
        let last = try #require(events.last)
        #expect(configuration.model.gestures[last.gesture].name == "single")
        #expect(last.time > recording.events.last!.time, "the last recognition comes from a timer after the end")
        #expect(pipeline.nextDeadline == nil)
        #expect(!events.isEmpty && events.allSatisfy { $0.state == .recognized })
    }

    /// `[[device]]` rules pick each device's mapping by name; no match is the identity.
    @Test func devicesAreMappedByTheirRule() throws {
        let configuration = try ConfigLoader.parse(
            text: Self.base + """

                [[device]]
                name = "Atmel*"
                rotation = 180
                """, file: "test.toml")
        let pipeline = GesturePipeline(configuration: configuration)
        let atmel = try EvemuRecording.read(path: SharedRecordings.path(Self.taps))
        let pixel = try EvemuRecording.read(path: SharedRecordings.path("google-pixel-tablet-nvt-1-finger-swipe.evemu"))
        _ = try #require(pipeline.addDevice(atmel.info))
        _ = try #require(pipeline.addDevice(pixel.info))
        #expect(pipeline.devices.map(\.mapping.rotation) == [180, 0])
        #expect(pipeline.devices[1].mapping == .identity)
        #expect(pipeline.devices[0].id != pipeline.devices[1].id)
    }

    /// udev's `LIBINPUT_CALIBRATION_MATRIX` (here a quarter turn clockwise, `0 -1 1 1 0 0`:
    /// x' = 1 - y, y' = x) applies when the matching rule sets no `calibration`, so the
    /// drag up the panel is a drag to the right on the screen, as the compositor sees it.
    /// A rule's own `calibration` wins over udev's.
    @Test func udevCalibrationMatrixAppliesUnlessTheRuleSetsOne() throws {
        let recording = try EvemuRecording.read(path: SharedRecordings.path(Self.drag))
        func firstTranslation(_ config: String, _ properties: [String: String]) throws -> (x: Double, y: Double, ResolvedMapping) {
            let pipeline = GesturePipeline(configuration: try ConfigLoader.parse(text: config, file: "test.toml"))
            let (id, warning) = try #require(pipeline.addDevice(recording.info, properties: properties))
            #expect(warning?.contains("calibration") != true)
            let index = try #require(pipeline.index(of: id))
            for event in recording.events {
                pipeline.feed(event, device: index)
                if let changed = pipeline.drained().events.first(where: { $0.state == .changed }) {
                    return (changed.translationX, changed.translationY, pipeline.devices[0].resolved)
                }
            }
            Issue.record("the drag never changed")
            return (0, 0, pipeline.devices[0].resolved)
        }
        let rotated = ["LIBINPUT_CALIBRATION_MATRIX": "0 -1 1 1 0 0"]

        let plain = try firstTranslation(Self.base, [:])
        #expect(abs(plain.y) > abs(plain.x) && plain.y < 0, "the recording starts as a drag up: \(plain)")
        #expect(plain.2.calibrationSource == .none)

        let turned = try firstTranslation(Self.base, rotated)
        #expect(turned.x > abs(turned.y), "up the panel is right on a panel turned clockwise: \(turned)")
        #expect(turned.2.calibrationSource == .udev && turned.2.rule == nil)
        #expect(turned.2.mapping.calibration == [0, -1, 1, 1, 0, 0])

        // A rule without calibration keeps udev's matrix and adds its own flips after it.
        let flipped = try firstTranslation(Self.base + "\n[[device]]\nname = \"Atmel*\"\nflip_x = true\n", rotated)
        #expect(flipped.x < -abs(flipped.y), "flip_x after the quarter turn: \(flipped)")
        #expect(flipped.2.calibrationSource == .udev && flipped.2.rule == 0)

        // A rule's calibration (here the identity, written out) replaces udev's.
        let own = try firstTranslation(Self.base + "\n[[device]]\nname = \"Atmel*\"\ncalibration = [1, 0, 0, 0, 1, 0]\n", rotated)
        #expect(abs(own.y) > abs(own.x) && own.y < 0)
        #expect(own.2.calibrationSource == .rule(0))
    }

    /// A udev matrix that is not 6 numbers is ignored, as libinput ignores it, with a warning.
    @Test func unreadableUdevCalibrationIsIgnoredWithAWarning() throws {
        let recording = try EvemuRecording.read(path: SharedRecordings.path(Self.drag))
        let pipeline = GesturePipeline(configuration: try ConfigLoader.parse(text: Self.base, file: "test.toml"))
        let (_, warning) = try #require(pipeline.addDevice(recording.info, properties: ["LIBINPUT_CALIBRATION_MATRIX": "1 0 0 0 1"]))
        #expect(warning?.contains("LIBINPUT_CALIBRATION_MATRIX \"1 0 0 0 1\" is not 6 numbers: ignored") == true)
        #expect(pipeline.devices[0].mapping == .identity)
    }
}
