import GestureCore
import TestSupport
import Testing

/// The engine's in-place runtime changes (`setGesture`, `setView`) against UIKit's
/// `isEnabled`, `isUserInteractionEnabled` and `frame` set while touches are down.
@Suite struct RuntimeChangeTests {
    /// A pan on the root, a tap that waits for a double tap, a `button` view with a tap.
    func model() throws -> GestureModel {
        var m = ModelBuilder()
        m.view("button", frame: Rect(x: 700, y: 400, width: 200, height: 150))
        m.gesture("press", .tap, on: "button")
        m.gesture("pan", .pan)
        m.gesture("tap", .tap)
        m.gesture("double", .tap) { $0.tap.taps = 2 }
        m.require("tap", toFail: "double")
        return try m.build()
    }

    @Test func aPanDisabledMidDragEndsCancelledAndTakesNoNewTouch() throws {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.drag(1, toX: 200, toY: 100, from: 0, duration: 500 * ms, steps: 10)
        let h = harness(try model(), builder: b)
        h.run(b.frames)
        #expect(h.log == ["pan began"] + Array(repeating: "pan changed", count: h.log.count - 1))
        h.setGesture("pan", enabled: false, at: 600 * ms)
        #expect(h.log.last == "pan cancelled")
        #expect(h.events.last?.time == 600 * ms)
        #expect(h.traceLog.last == "[root/pan] changed -> cancelled (disabled)")

        // The finger moves on, lifts, and a new drag comes: the pan stays quiet.
        h.forgetEvents()
        var more = b
        more.move(1, x: 300, y: 100, at: 700 * ms)
        more.up(1, at: 800 * ms)
        more.down(2, x: 100, y: 300, at: 1000 * ms)
        more.drag(2, toX: 300, toY: 300, from: 1000 * ms, duration: 300 * ms, steps: 10)
        more.up(2, at: 1400 * ms)
        h.run(more.frames.dropFirst(b.frames.count))
        #expect(!h.log.contains { $0.hasPrefix("pan") })
        #expect(h.engine.model.gestures[h.index("pan")].enabled == false)

        // Enabled again, it takes the contacts that go down next.
        h.setGesture("pan", enabled: true, at: 1500 * ms)
        var again = FrameBuilder()
        again.down(3, x: 100, y: 300, at: 1600 * ms)
        again.drag(3, toX: 300, toY: 300, from: 1600 * ms, duration: 300 * ms, steps: 10)
        again.up(3, at: 2000 * ms)
        h.run(again.frames)
        #expect(h.log.first == "pan began" && h.log.last == "pan ended")
    }

    @Test func aTapDisabledWhilePendingFailsSilently() throws {
        var b = FrameBuilder()
        b.tap(1, x: 100, y: 100, at: 0)
        let h = harness(try model(), builder: b)
        h.run(b.frames)
        #expect(h.traceLog.contains("[root/tap] possible -> pending (required failure of double)"))
        h.setGesture("tap", enabled: false, at: 100 * ms)
        // Failed, and its contacts all lifted: back to possible at once.
        #expect(h.traceLog.suffix(2) == ["[root/tap] pending -> failed (disabled)", "[root/tap] failed -> possible (reset)"])
        h.settle()
        #expect(h.log.isEmpty)
    }

    @Test func disablingTheGestureOthersWaitOnReleasesThem() throws {
        // The tap waits for the double tap; the double tap, disabled, fails now, so the tap
        // recognizes at once instead of after the double tap's interval.
        var b = FrameBuilder()
        b.tap(1, x: 100, y: 100, at: 0)
        let h = harness(try model(), builder: b)
        h.run(b.frames)
        h.setGesture("double", enabled: false, at: 100 * ms)
        #expect(h.log == ["tap recognized"])
        #expect(h.events[0].time == 100 * ms)
        #expect(h.events[0].delayedFrom == 80 * ms)
        #expect(h.traceLog.contains("[root/double] possible -> failed (disabled)"))
    }

    @Test func disablingAnIdleGestureLeavesNoTrace() throws {
        let h = harness(try model())
        h.setGesture("pan", enabled: false, at: 0)
        #expect(h.trace.isEmpty && h.events.isEmpty)
        #expect(h.engine.model.gestures[h.index("pan")].enabled == false)
    }

    @Test func aMovedViewHitTestsTheNextTouchAndTouchesDownStay() throws {
        var b = FrameBuilder()
        b.down(1, x: 800, y: 450, at: 0)  // in the button where it was
        let h = harness(try model(), builder: b)
        h.run(b.frames)
        h.setView("button", frame: Rect(x: 0, y: 0, width: 200, height: 150), at: 10 * ms)
        var more = b
        more.up(1, at: 60 * ms)  // the tap that began in the button still recognizes there
        more.tap(2, x: 100, y: 100, at: 1000 * ms)  // where the button is now
        more.tap(3, x: 800, y: 450, at: 2000 * ms)  // where it was: the root's tap
        h.run(more.frames.dropFirst(b.frames.count))
        h.settle()
        #expect(h.log == ["press recognized", "press recognized", "tap recognized"])
        #expect(h.events.map(\.view) == [1, 1, 0])
        #expect(h.engine.model.views[1].frame == Rect(x: 0, y: 0, width: 200, height: 150))
    }

    @Test func aDisabledViewPassesNewTouchesToWhatIsBelow() throws {
        var b = FrameBuilder()
        b.down(1, x: 800, y: 450, at: 0)
        let h = harness(try model(), builder: b)
        h.run(b.frames)
        h.setView("button", enabled: false, at: 10 * ms)
        var more = b
        more.up(1, at: 60 * ms)  // began in the button: stays with it
        more.tap(2, x: 800, y: 450, at: 1000 * ms)  // the button takes none: the root's tap
        h.run(more.frames.dropFirst(b.frames.count))
        h.settle()
        #expect(h.log == ["press recognized", "tap recognized"])
        #expect(h.events.map(\.view) == [1, 0])
        h.forgetEvents()
        h.setView("button", enabled: true, at: 3000 * ms)
        var again = FrameBuilder()
        again.tap(4, x: 800, y: 450, at: 4000 * ms)
        h.run(again.frames)
        #expect(h.log == ["press recognized"])
    }

    // MARK: touch delivery

    @Test func aDisabledGestureNeitherDelaysNorCancelsTheApplicationsTouches() throws {
        var m = ModelBuilder()
        m.view("button", frame: Rect(x: 400, y: 200, width: 200, height: 200))
        m.gesture("press", .longPress, on: "button") { $0.delivery.delaysTouchesBegan = true }
        var b = FrameBuilder()
        b.down(1, x: 500, y: 300, at: 0)
        b.hold(at: 100 * ms)
        let h = harness(try m.build(), builder: b)
        h.engine.touchDeliveryEnabled = true
        h.run(b.frames)
        #expect(h.touchLog.isEmpty)  // held back while the press may begin
        // Disabled, the press fails: the held touch is shown now, with its delay.
        h.setGesture("press", enabled: false, at: 200 * ms)
        #expect(h.touchLog == ["1 began +200ms"])
        var more = b
        more.hold(at: 900 * ms)  // past the press's 500 ms: it would have begun and cancelled it
        more.up(1, at: 1000 * ms)
        more.down(2, x: 500, y: 300, at: 2000 * ms)
        more.hold(at: 2800 * ms)
        more.up(2, at: 2900 * ms)
        h.run(more.frames.dropFirst(b.frames.count))
        h.settle()
        #expect(h.log.isEmpty)
        #expect(h.touchLog == ["1 began +200ms", "1 ended", "2 began", "2 ended"])
    }

    @Test func aDisabledGestureOnlyViewPassesTouchesAgain() throws {
        var m = ModelBuilder()
        m.view("strip", frame: Rect(x: 0, y: 0, width: 1000, height: 100), passthrough: false)
        var b = FrameBuilder()
        b.tap(1, x: 500, y: 50, at: 0)
        let h = harness(try m.build(), builder: b)
        h.engine.touchDeliveryEnabled = true
        h.run(b.frames)
        #expect(h.touchLog.isEmpty)
        h.setView("strip", enabled: false, at: 500 * ms)
        var more = FrameBuilder()
        more.tap(2, x: 500, y: 50, at: 1000 * ms)
        h.run(more.frames)
        #expect(h.touchLog == ["2 began", "2 ended"])
    }
}

extension PipelineHarness {
    func index(_ gesture: String) -> Int { engine.model.gestures.firstIndex { $0.name == gesture }! }
}
