import GestureConfig
import GestureCore
import TestSupport
import Testing

@testable import TouchPipeline

/// Continuous gestures' `changed` at the display's pace (`ChangePacer`, docs/SEMANTICS.md
/// "At the display's pace"): at most once per period, the newest, never after the end.
@Suite struct ChangePacerTests {
    static let period: Microseconds = 16_667

    static func event(_ time: Microseconds, _ state: GestureState, gesture: Int = 0, x: Double = 0) -> GestureEvent {
        GestureEvent(time: time, gesture: gesture, view: 0, state: state, device: DeviceID(1), x: x)
    }

    /// One line per output: `event T STATE g` or `paced T g xN`.
    static func log(_ outputs: [PipelineOutput]) -> [String] {
        outputs.map { output in
            switch output {
            case .event(let e): "event \(e.time) \(e.state) \(e.gesture)"
            case .paced(let e, _, let n): "paced \(e.time) \(e.gesture) x\(n)"
            default: "other"
            }
        }
    }

    /// A pacer with one lane at 60 Hz for each of `gestures` gestures, fed `events`.
    static func run(_ events: [GestureEvent], gestures: Int = 1) -> (ChangePacer, [PipelineOutput]) {
        var pacer = ChangePacer(periods: Array(repeating: [period], count: gestures))
        var outputs: [PipelineOutput] = []
        for e in events { pacer.take(e, into: &outputs) }
        return (pacer, outputs)
    }

    @Test func aChangedAPeriodAfterTheLastRunIsPacedAtOnceAndOneSoonerWaits() {
        let (pacer, outputs) = Self.run([
            Self.event(0, .began), Self.event(16_666, .changed), Self.event(16_667, .changed), Self.event(20_000, .changed),
        ])
        #expect(
            Self.log(outputs) == [
                "event 0 began 0", "event 16666 changed 0",
                // The boundary: a period after `began`, with the newest values, for both.
                "event 16667 changed 0", "paced 16667 0 x2",
                "event 20000 changed 0",
            ])
        // The one that waits is due a period after it arrived.
        #expect(pacer.nextDeadline == 20_000 + Self.period)
    }

    @Test func aWaitingChangedIsPacedAtItsDeadlineAndNotBefore() {
        var (pacer, outputs) = Self.run([Self.event(0, .began), Self.event(4_000, .changed), Self.event(8_000, .changed)])
        outputs.removeAll()
        #expect(pacer.nextDeadline == 24_667)
        pacer.expire(upTo: 24_666, into: &outputs)
        #expect(outputs.isEmpty)
        pacer.expire(upTo: 24_667, into: &outputs)
        #expect(Self.log(outputs) == ["paced 8000 0 x2"])
        #expect(pacer.nextDeadline == nil)
        // The period runs from that deadline: a changed just before its end waits, at it runs.
        outputs.removeAll()
        pacer.take(Self.event(41_333, .changed), into: &outputs)
        pacer.take(Self.event(41_334, .changed), into: &outputs)
        #expect(Self.log(outputs) == ["event 41333 changed 0", "event 41334 changed 0", "paced 41334 0 x2"])
    }

    @Test func aWaitingChangedGoesOutBeforeEndedAndCancelled() {
        for end in [GestureState.ended, .cancelled] {
            let (pacer, outputs) = Self.run([
                Self.event(0, .began), Self.event(4_000, .changed), Self.event(8_000, .changed), Self.event(10_000, end),
            ])
            #expect(
                Self.log(outputs) == [
                    "event 0 began 0", "event 4000 changed 0", "event 8000 changed 0", "paced 8000 0 x2", "event 10000 \(end) 0",
                ])
            #expect(pacer.nextDeadline == nil)
        }
    }

    @Test func anEndWithNothingWaitingAddsNothingAndTheNextGestureStartsAfresh() {
        let (_, outputs) = Self.run([
            Self.event(0, .began), Self.event(20_000, .changed), Self.event(21_000, .ended),
            Self.event(22_000, .began), Self.event(30_000, .changed),
        ])
        #expect(
            Self.log(outputs) == [
                "event 0 began 0", "event 20000 changed 0", "paced 20000 0 x1", "event 21000 ended 0",
                "event 22000 began 0", "event 30000 changed 0",
            ])
    }

    @Test func gesturesArePacedEachOnItsOwn() {
        var (pacer, outputs) = Self.run(
            [
                Self.event(0, .began, gesture: 0), Self.event(5_000, .began, gesture: 1),
                Self.event(10_000, .changed, gesture: 0), Self.event(12_000, .changed, gesture: 1),
                Self.event(17_000, .changed, gesture: 0), Self.event(18_000, .changed, gesture: 1),
                Self.event(19_000, .ended, gesture: 1),
            ], gestures: 2)
        #expect(
            Self.log(outputs) == [
                "event 0 began 0", "event 5000 began 1", "event 10000 changed 0", "event 12000 changed 1",
                "event 17000 changed 0", "paced 17000 0 x2", "event 18000 changed 1", "paced 18000 1 x2",
                "event 19000 ended 1",
            ])
        // A gesture without a lane passes through.
        outputs.removeAll()
        pacer.take(Self.event(20_000, .changed, gesture: 5), into: &outputs)
        #expect(Self.log(outputs) == ["event 20000 changed 5"])
    }

    @Test func everyFrameAndOtherRatesPerAction() throws {
        var settings = DaemonSettings()
        settings.frameRate = .hertz(60)
        let socket = ActionSpec.Kind.socket(path: "/run/map.sock", message: nil, datagram: true)
        let actions = [
            GestureActions(byState: [.changed: [ActionSpec(kind: socket, frameRate: .everyFrame)]]),
            GestureActions(byState: [
                .changed: [ActionSpec(kind: socket), ActionSpec(kind: socket, frameRate: .hertz(30)), ActionSpec(kind: socket)]
            ]),
            GestureActions(byState: [.began: [ActionSpec(kind: socket)]]),
        ]
        var m = ModelBuilder()
        m.gesture("a", .pan)
        m.gesture("b", .pinch)
        m.gesture("c", .rotation)
        let configuration = Configuration(daemon: settings, model: try m.build(), devices: [], actions: actions)
        #expect(configuration.changedPeriods == [[], [16_667, 33_333], []])
        // Every frame: no lane, so nothing is paced for it.
        let (_, outputs) = Self.run([Self.event(0, .began), Self.event(1_000, .changed)], gestures: 0)
        #expect(Self.log(outputs) == ["event 0 began 0", "event 1000 changed 0"])
        // A subscriber's pace adds the daemon's rate to every continuous gesture, once.
        let pipeline = GesturePipeline(configuration: configuration)
        pipeline.pacesEvents = true
        #expect(pipeline.pacedPeriods() == [[16_667], [16_667, 33_333], [16_667]])
    }

    /// A pan through the whole pipeline, its frames at 240 Hz: fed with the deadlines
    /// advanced (as replay and the daemon do) or fed alone, the paced outputs are the same,
    /// at most one per period, each the newest `changed`, the last before `ended`.
    @Test func aPanAt240HzThroughThePipeline() throws {
        var m = ModelBuilder()
        m.gesture("pan", .pan)
        let socket = ActionSpec.Kind.socket(path: "/run/map.sock", message: nil, datagram: true)
        let configuration = Configuration(
            daemon: DaemonSettings(), model: try m.build(), devices: [],
            actions: [GestureActions(byState: [.changed: [ActionSpec(kind: socket)]])])
        var builder = FrameBuilder()
        builder.down(1, x: 100, y: 300, at: 0)
        builder.drag(1, toX: 700, toY: 300, from: 0, duration: 500_000, steps: 120)
        builder.up(1, at: 504_167)
        func play(advancing: Bool) -> OutputRecorder {
            let pipeline = GesturePipeline(configuration: configuration)
            var recorder = OutputRecorder()
            for frame in builder.frames {
                if advancing {
                    while let deadline = pipeline.nextDeadline, deadline < frame.time { pipeline.advance(to: deadline) }
                }
                pipeline.handle(frame)
                pipeline.drain(into: &recorder)
            }
            return recorder
        }
        let advanced = play(advancing: true)
        let alone = play(advancing: false)
        #expect(Self.log(advanced.outputs) == Self.log(alone.outputs))
        let changed = advanced.events.filter { $0.state == .changed }
        let paced = advanced.paced
        #expect(changed.count > 100)
        // 500 ms at 60 Hz: about 30, never two within a period but the one flushed at the end.
        #expect((25...31).contains(paced.count))
        for k in 1..<paced.count - 1 { #expect(paced[k].event.time - paced[k - 1].event.time >= Self.period) }
        #expect(paced.map(\.coalesced).reduce(0, +) == changed.count)
        #expect(paced.last?.event == changed.last)
        let log = Self.log(advanced.outputs)
        let endedAt = try #require(log.firstIndex { $0.hasSuffix("ended 0") })
        #expect(log[endedAt - 1].hasPrefix("paced"))
    }
}
