import GestureCore
import TestSupport
import Testing

/// `GestureEngine.forEachTouch`: what `monitor --touches` streams, per frame.
@Suite struct TouchReportTests {
    @Test func changedContactsWithPositionMillimetresAndHitView() throws {
        var model = ModelBuilder()
        model.view("panel", frame: Rect(x: 100, y: 100, width: 300, height: 200))
        var frames = FrameBuilder()  // 1 px = 0.25 mm
        let h = PipelineHarness(model: try model.build())
        h.attach(frames, name: "panel")
        frames.down(1, x: 150, y: 120, at: 0)
        frames.down(2, x: 800, y: 500, at: 10_000)
        frames.move(1, x: 160, y: 130, at: 20_000)
        frames.up(1, at: 30_000)
        frames.cancel(2, at: 30_000)

        var reports: [[TouchReport]] = []
        for frame in frames.frames {
            h.run([frame])
            var touches: [TouchReport] = []
            h.engine.forEachTouch { touches.append($0) }
            reports.append(touches)
        }
        #expect(
            reports.map { $0.map { "\($0.id) \($0.phase)" } } == [
                ["1 began"], ["2 began"], ["1 moved"], ["1 ended", "2 cancelled"],
            ], "a stationary contact is not reported")
        let moved = try #require(reports[2].first)
        #expect(moved.time == 20_000 && moved.device == frames.device)
        #expect(abs(moved.x - 160) < 0.01 && abs(moved.y - 130) < 0.01)
        #expect(abs(moved.mmX - 40) < 0.01 && abs(moved.mmY - 32.5) < 0.01)
        #expect(moved.hitView == 1, "touch 1 went down in panel")
        #expect(reports[1].first?.hitView == 0, "touch 2 went down on the root")
    }
}
