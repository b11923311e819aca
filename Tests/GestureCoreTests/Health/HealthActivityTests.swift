import GestureCore
import TestSupport
import Testing

/// What the stage tells `status` besides its counts: the spots masked now with since and
/// until, the last touch it let through, the frame rate.
@Suite struct HealthActivityTests {
    let ms: Int64 = 1_000

    @Test func aMaskedSpotSaysSinceWhenAndUntilWhen() {
        var s = TouchHealthSettings()
        var spot = TouchHealthSettings.Spot(count: 3)
        spot.release = 10_000 * ms
        s.spot = spot
        var b = FrameBuilder()
        for i in 0..<3 { b.tap(Int32(i + 1), x: 500, y: 300, at: Int64(i) * 1_000 * ms) }
        b.tap(4, x: 500, y: 300, at: 4_000 * ms)  // on the spot: keeps it masked longer
        let h = HealthRun(s, panel: b)
        h.run(b.frames)
        // Masked when the third tap lifted (80 ms after it went down); released 10 s after
        // the last contact landed on it.
        #expect(h.stage.maskedSpotList == [MaskedSpot(x: 500, y: 300, since: 2_080 * ms, until: 14_000 * ms)])
        h.run([], until: 14_000 * ms)
        #expect(h.stage.maskedSpotList.isEmpty)
    }

    @Test func theLastTouchIsTheLastOneLetThroughNotAGhost() {
        var s = TouchHealthSettings()
        s.minContact = 50 * ms
        var b = FrameBuilder()
        b.tap(1, x: 100, y: 100, at: 0, duration: 80 * ms)
        b.tap(2, x: 500, y: 300, at: 1_000 * ms, duration: 20 * ms)  // a ghost, never shown
        let h = HealthRun(s, panel: b)
        #expect(h.stage.lastTouch == nil)
        h.run(b.frames)
        #expect(h.stage.lastFrame == 1_020 * ms)
        #expect(h.stage.lastTouch == 80 * ms, "the real tap's lift, not the ghost")
    }

    @Test func aHeldContactShownByItsTimerIsATouch() {
        var s = TouchHealthSettings()
        s.minContact = 50 * ms
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.hold(at: 10 * ms)
        let h = HealthRun(s, panel: b)
        h.run(b.frames, until: 60 * ms)
        #expect(h.stage.lastTouch == 50 * ms)
    }

    @Test func framesPerSecondCountsTheLastSecondByTheCallersTime() {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.drag(1, toX: 900, toY: 100, from: 0, duration: 1_990 * ms, steps: 199)  // 100 Hz for 2 s
        let h = HealthRun(TouchHealthSettings(), panel: b)
        h.run(b.frames)
        #expect(h.stage.framesPerSecond(at: 1_990 * ms) == 100)
        #expect(h.stage.framesPerSecond(at: 2_490 * ms) == 50)
        #expect(h.stage.framesPerSecond(at: 3_000 * ms) == 0)
    }

    @Test func aPanelFasterThanTheRingIsMeasuredOverItsSpan() {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.drag(1, toX: 900, toY: 100, from: 0, duration: 999 * ms, steps: 999)  // 1000 Hz
        let h = HealthRun(TouchHealthSettings(), panel: b)
        h.run(b.frames)
        #expect(h.stage.framesPerSecond(at: 999 * ms) == 1000)
    }
}
