import GestureConfig
import GestureControl
import GestureCore
import TestSupport
import Testing

@testable import TouchPipeline

/// The idle rule (`IdleStage`) through the pipeline: the deadline, the waking touch consumed
/// whole, the next touch delivered, reloads and runtime changes while idle.
@Suite struct IdleStageTests {
    static let ms: Int64 = 1000
    static let after: Int64 = 5_000_000

    /// A tap on the whole screen; `[idle] after = "5s"` unless `idle` is false; a mode
    /// `quiet` that turns the tap off.
    static func configuration(idle: Bool = true) throws -> Configuration {
        var m = ModelBuilder()
        m.gesture("tap", .tap)
        var configuration = Configuration(daemon: DaemonSettings(), model: try m.build(), devices: [], actions: [GestureActions()])
        configuration.modes = [ModeSpec(name: "quiet", gestures: [.init(index: 0, enabled: false)])]
        if idle { configuration.idle = IdleRule(after: after) }
        return configuration
    }

    /// A pipeline with touch delivery on (what the clone would get is in the stream) and
    /// one panel attached.
    static func pipeline(idle: Bool = true) throws -> (GesturePipeline, FrameBuilder) {
        let pipeline = GesturePipeline(configuration: try configuration(idle: idle))
        let builder = FrameBuilder()
        pipeline.path.attach(device: builder.device, name: "panel", x: builder.x, y: builder.y, mapping: .identity)
        pipeline.engine.touchDeliveryEnabled = true
        return (pipeline, builder)
    }

    /// Feeds the builder's frames from `index` on; returns the next index.
    @discardableResult
    static func feed(_ pipeline: GesturePipeline, _ builder: FrameBuilder, from index: Int) -> Int {
        for frame in builder.frames[index...] { pipeline.handle(frame) }
        return builder.frames.count
    }

    static func idleChanges(_ recorder: OutputRecorder) -> [IdleChange] {
        recorder.outputs.compactMap { if case .idle(let change) = $0 { change } else { nil } }
    }

    /// Puts the pipeline to sleep: a tap at 0 (lifted at 80 ms), then the deadline.
    static func asleep() throws -> (GesturePipeline, FrameBuilder, Int) {
        let (pipeline, builder) = try pipeline()
        var b = builder
        b.tap(1, x: 100, y: 100, at: 0)
        let next = feed(pipeline, b, from: 0)
        pipeline.advance(to: 80 * ms + after)
        let recorder = pipeline.drained()
        #expect(idleChanges(recorder) == [IdleChange(time: 80 * ms + after, idle: true, cause: .timeout)])
        #expect(pipeline.path.stages.idle.state == .idle)
        return (pipeline, b, next)
    }

    @Test func theDeadlineOnBothSides() throws {
        let (pipeline, builder) = try Self.pipeline()
        var b = builder
        b.tap(1, x: 100, y: 100, at: 0)
        Self.feed(pipeline, b, from: 0)
        #expect(pipeline.nextDeadline == 80 * Self.ms + Self.after)
        pipeline.advance(to: 80 * Self.ms + Self.after - 1)
        #expect(Self.idleChanges(pipeline.drained()).isEmpty)
        #expect(pipeline.path.stages.idle.state == .active)
        pipeline.advance(to: 80 * Self.ms + Self.after)
        #expect(Self.idleChanges(pipeline.drained()) == [IdleChange(time: 80 * Self.ms + Self.after, idle: true, cause: .timeout)])
        #expect(pipeline.path.stages.idle.sleeps == 1)
        // Idle until a touch: no deadline.
        #expect(pipeline.nextDeadline == nil)
    }

    @Test func theTimeWithoutATouchCountsFromTheFirstStep() throws {
        let (pipeline, _) = try Self.pipeline()
        #expect(pipeline.nextDeadline == nil)
        pipeline.advance(to: 7_000 * Self.ms)
        #expect(pipeline.nextDeadline == 7_000 * Self.ms + Self.after)
    }

    @Test func aTouchDownAtTheDeadlineKeepsTheScreenActiveUntilItLifts() throws {
        let (pipeline, builder) = try Self.pipeline()
        var b = builder
        b.down(1, x: 100, y: 100, at: 1_000 * Self.ms)
        var next = Self.feed(pipeline, b, from: 0)
        // A still finger sends no frames: it is down past where the deadline would be.
        #expect(pipeline.path.stages.idle.nextDeadline == nil)
        pipeline.advance(to: 1_000 * Self.ms + 2 * Self.after)
        #expect(Self.idleChanges(pipeline.drained()).isEmpty)
        b.up(1, at: 12_000 * Self.ms)
        next = Self.feed(pipeline, b, from: next)
        #expect(pipeline.nextDeadline == 12_000 * Self.ms + Self.after)
        pipeline.advance(to: 12_000 * Self.ms + Self.after)
        #expect(Self.idleChanges(pipeline.drained()).map(\.idle) == [true])
    }

    @Test func theWakingTouchIsConsumedWithAllItsFingersAndTheNextIsDelivered() throws {
        let (pipeline, builder, start) = try Self.asleep()
        var b = builder
        let t0 = 10_000 * Self.ms
        b.down(1, x: 100, y: 100, at: t0)
        b.down(2, x: 300, y: 100, at: t0 + 20 * Self.ms)
        b.move(1, x: 110, y: 100, at: t0 + 40 * Self.ms)
        b.up(1, at: t0 + 60 * Self.ms)
        b.down(3, x: 500, y: 100, at: t0 + 70 * Self.ms)
        b.up(2, at: t0 + 80 * Self.ms)
        b.up(3, at: t0 + 90 * Self.ms)
        var next = Self.feed(pipeline, b, from: start)
        pipeline.advance(to: t0 + 1_000 * Self.ms)
        var recorder = pipeline.drained()
        #expect(Self.idleChanges(recorder) == [IdleChange(time: t0, idle: false, cause: .touch(b.device))])
        #expect(recorder.applicationTouches.isEmpty)
        #expect(recorder.events.isEmpty)
        #expect(pipeline.path.stages.idle.state == .active)
        #expect(pipeline.path.stages.idle.wakes == 1)
        // The next touch passes: the application sees it and the tap recognizes (and, as a
        // tap cancels the touches it takes, cancels it).
        b.tap(4, x: 100, y: 100, at: t0 + 2_000 * Self.ms)
        next = Self.feed(pipeline, b, from: next)
        pipeline.advance(to: t0 + 3_000 * Self.ms)
        recorder = pipeline.drained()
        #expect(recorder.applicationTouches.map(\.kind) == [.began, .cancelled])
        #expect(recorder.events.map(\.state) == [.recognized])
        #expect(Self.idleChanges(recorder).isEmpty)
        // And the deadline counts from its lift.
        #expect(pipeline.path.stages.idle.nextDeadline == t0 + 2_080 * Self.ms + Self.after)
    }

    @Test func aReloadKeepsTheScreenIdleOrEndsTheRule() throws {
        let (pipeline, builder, start) = try Self.asleep()
        var b = builder
        pipeline.reload(try Self.configuration(), at: 9_000 * Self.ms)
        #expect(Self.idleChanges(pipeline.drained()).isEmpty)
        #expect(pipeline.path.stages.idle.state == .idle)
        // Still consumed after the reload.
        b.tap(2, x: 100, y: 100, at: 10_000 * Self.ms)
        var next = Self.feed(pipeline, b, from: start)
        #expect(pipeline.drained().applicationTouches.isEmpty)
        // Idle again, then a reload without [idle]: active at once, and the next touch passes.
        pipeline.advance(to: 10_080 * Self.ms + Self.after)
        #expect(pipeline.path.stages.idle.state == .idle)
        _ = pipeline.drained()
        pipeline.reload(try Self.configuration(idle: false), at: 20_000 * Self.ms)
        #expect(Self.idleChanges(pipeline.drained()) == [IdleChange(time: 20_000 * Self.ms, idle: false, cause: .reload)])
        #expect(pipeline.path.stages.idle.state == .off)
        #expect(pipeline.path.stages.idle.nextDeadline == nil)
        b.tap(3, x: 100, y: 100, at: 21_000 * Self.ms)
        next = Self.feed(pipeline, b, from: next)
        #expect(pipeline.drained().applicationTouches.map(\.kind) == [.began, .cancelled])
        // A reload that brings [idle] back counts the time without a touch from itself.
        pipeline.reload(try Self.configuration(), at: 30_000 * Self.ms)
        #expect(pipeline.path.stages.idle.nextDeadline == 30_000 * Self.ms + Self.after)
    }

    @Test func aModeOrSetWhileIdleNeitherWakesNorLetsTheWakingTouchThrough() throws {
        let (pipeline, builder, start) = try Self.asleep()
        var b = builder
        let app = RuntimeOwner.client(connection: 1, pid: 100, uid: 1000)
        try pipeline.perform(.mode(ModeRequest(mode: "quiet")), by: app, at: 6_000 * Self.ms)
        try pipeline.perform(.mode(ModeRequest(mode: nil)), by: app, at: 6_500 * Self.ms)
        try pipeline.perform(.set(SetRequest(target: .gesture("tap"), enabled: true)), by: app, at: 7_000 * Self.ms)
        var recorder = pipeline.drained()
        #expect(recorder.runtime.count == 3)
        #expect(Self.idleChanges(recorder).isEmpty)
        #expect(pipeline.path.stages.idle.state == .idle)
        b.tap(2, x: 100, y: 100, at: 8_000 * Self.ms)
        Self.feed(pipeline, b, from: start)
        pipeline.advance(to: 9_000 * Self.ms)
        recorder = pipeline.drained()
        #expect(recorder.applicationTouches.isEmpty)
        #expect(recorder.events.isEmpty)
        #expect(Self.idleChanges(recorder).map(\.cause) == [.touch(b.device)])
    }

    @Test func withoutIdleNothingChanges() throws {
        let (pipeline, builder) = try Self.pipeline(idle: false)
        var b = builder
        b.tap(1, x: 100, y: 100, at: 0)
        Self.feed(pipeline, b, from: 0)
        pipeline.advance(to: 100 * Self.after)
        let recorder = pipeline.drained()
        #expect(Self.idleChanges(recorder).isEmpty)
        #expect(recorder.applicationTouches.map(\.kind) == [.began, .cancelled])
        #expect(pipeline.path.stages.idle.state == .off)
    }
}
