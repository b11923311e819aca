import GestureConfig
import GestureCore
import TestSupport
import Testing

/// A reload at the config level: a reloaded file replaces the running model between two
/// frames; gestures in flight whose definition is unchanged continue, removed or changed
/// ones end with `cancelled`. The engine decides by spec; `ModelDiff` by name.
@Suite struct ReloadSwapTests {
    static let ms: Int64 = 1_000

    /// The screen of `FrameBuilder`'s default geometry (1000 x 600 px, 0.25 mm per px).
    static let head = "[screen]\nwidth = 1000\nheight = 600\n"

    static let original =
        head + """
            [view.side]
            frame = { width = "50%" }
            [view.map]
            frame = { x = "50%", width = "50%" }
            [gesture.drag]
            type = "pan"
            view = "map"
            simultaneous_with = ["zoom"]
            [gesture.zoom]
            type = "pinch"
            view = "map"
            [gesture.menu]
            type = "pan"
            view = "side"
            max_touches = 1
            """

    func model(_ text: String) throws -> GestureModel {
        try ConfigLoader.parse(text: text, file: "reload.toml").model
    }

    /// A one-finger drag on the map (drag begins) and one on the side view (menu begins):
    /// sibling views, so the two pans share no contact.
    func harnessWithTwoPansInFlight() throws -> (PipelineHarness, FrameBuilder) {
        var frames = FrameBuilder()
        frames.down(1, x: 700, y: 300, at: 0)
        frames.down(2, x: 100, y: 300, at: 0)
        frames.drag(1, toX: 800, toY: 300, from: 0, duration: 200 * Self.ms, steps: 10)
        frames.drag(2, toX: 200, toY: 300, from: 200 * Self.ms, duration: 200 * Self.ms, steps: 10)
        let harness = PipelineHarness(model: try model(Self.original))
        harness.attach(frames)
        harness.run(frames.frames)
        #expect(harness.log.contains("drag began"))
        #expect(harness.log.contains("menu began"))
        harness.forgetEvents()
        return (harness, frames)
    }

    /// "name state" of events written during a replacement, which carry the old model's indices.
    func names(_ events: [GestureEvent], in model: GestureModel) -> [String] {
        events.map { "\(model.gestures[$0.gesture].name) \($0.state)" }
    }

    /// Lifts both fingers after the reload and returns the log of what followed.
    func finish(_ harness: PipelineHarness, _ frames: FrameBuilder) -> [String] {
        harness.forgetEvents()
        var tail = frames
        tail.move(1, x: 850, y: 300, at: 500 * Self.ms)
        tail.move(2, x: 250, y: 300, at: 500 * Self.ms)
        tail.up(1, at: 600 * Self.ms)
        tail.up(2, at: 600 * Self.ms)
        harness.run(tail.frames.dropFirst(frames.frames.count))
        return harness.log
    }

    @Test func sameFileKeepsEveryGestureInFlight() throws {
        let (harness, frames) = try harnessWithTwoPansInFlight()
        harness.replace(try model(Self.original), at: 450 * Self.ms)
        #expect(harness.events.isEmpty)
        let log = finish(harness, frames)
        #expect(log.contains("drag ended") && log.contains("menu ended"))
        #expect(!log.contains { $0.hasSuffix("cancelled") })
    }

    @Test func changedGestureIsCancelledUnchangedOneContinues() throws {
        let (harness, frames) = try harnessWithTwoPansInFlight()
        let edited = Self.original.replacing("max_touches = 1", with: "max_touches = 2")
        let diff = ModelDiff(from: harness.engine.model, to: try model(edited))
        #expect(diff.changed == ["menu"] && diff.unchanged == ["drag", "zoom"])
        let old = harness.engine.model
        harness.replace(try model(edited), at: 450 * Self.ms)
        #expect(names(harness.events, in: old) == ["menu cancelled"])
        let log = finish(harness, frames)
        #expect(log.last == "drag ended")
        #expect(!log.contains { $0.hasPrefix("menu") })
    }

    @Test func removedGestureIsCancelled() throws {
        let (harness, frames) = try harnessWithTwoPansInFlight()
        let edited = Self.original.replacing("[gesture.menu]\ntype = \"pan\"\nview = \"side\"\nmax_touches = 1", with: "")
        let old = harness.engine.model
        harness.replace(try model(edited), at: 450 * Self.ms)
        #expect(harness.engine.model.gestures.map(\.name) == ["drag", "zoom"])
        #expect(names(harness.events, in: old) == ["menu cancelled"])
        #expect(finish(harness, frames).last == "drag ended")
    }

    /// A gesture added before the others shifts every index, including drag's reference to
    /// zoom; nothing that was running changed, so nothing is cancelled.
    @Test func addedGestureShiftsIndicesWithoutCancellingUnchangedOnes() throws {
        let (harness, frames) = try harnessWithTwoPansInFlight()
        let edited = Self.original.replacing("[gesture.drag]", with: "[gesture.flick]\ntype = \"swipe\"\nview = \"side\"\n[gesture.drag]")
        let new = try model(edited)
        #expect(ModelDiff(from: harness.engine.model, to: new).continuing == [nil, 0, 1, 2])
        let old = harness.engine.model
        harness.replace(new, at: 450 * Self.ms)
        #expect(names(harness.events, in: old) == [])
        let log = finish(harness, frames)
        #expect(log.contains("drag ended") && log.contains("menu ended"))
    }
}
