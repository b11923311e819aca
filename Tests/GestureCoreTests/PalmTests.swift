import GestureCore
import TestSupport
import Testing

/// A contact the panel reports as `MT_TOOL_PALM` is a cancelled touch.
@Suite struct PalmTests {
    func model(_ build: (inout ModelBuilder) -> Void) throws -> GestureModel {
        var m = ModelBuilder()
        m.view("left", frame: Rect(x: 0, y: 0, width: 500, height: 600))
        m.view("right", frame: Rect(x: 500, y: 0, width: 500, height: 600))
        build(&m)
        return try m.build()
    }

    @Test func aContactThatBeginsAsAPalmBeginsNoGesture() throws {
        let h = run(
            try model { m in
                m.gesture("pan", .pan, on: "left")
                m.gesture("tap", .tap, on: "left")
            }
        ) { b in
            b.down(1, x: 100, y: 100, at: 0, tool: .palm)
            b.drag(1, toX: 300, toY: 100, from: 0, duration: 300 * ms, steps: 10)
            b.up(1, at: 310 * ms)
        }
        #expect(h.log.isEmpty)
        #expect(h.trace.isEmpty)
        #expect(h.engine.snapshot().contacts == 0)
    }

    @Test func aRunningPanWhoseTouchBecomesAPalmEndsCancelledAndThePalmStaysIgnored() throws {
        let h = run(try model { m in m.gesture("pan", .pan, on: "left") }) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.drag(1, toX: 200, toY: 100, from: 0, duration: 100 * ms, steps: 5)
            b.tool(1, .palm, at: 120 * ms)
            // The panel calls it a finger again: still the same palm until it lifts.
            b.tool(1, .finger, at: 140 * ms)
            b.drag(1, toX: 400, toY: 100, from: 140 * ms, duration: 100 * ms, steps: 5)
            b.up(1, at: 250 * ms)
            // A new touch pans again.
            b.down(2, x: 100, y: 300, at: 400 * ms)
            b.drag(2, toX: 200, toY: 300, from: 400 * ms, duration: 100 * ms, steps: 5)
            b.up(2, at: 510 * ms)
        }
        #expect(h.log.first == "pan began")
        let first = h.log.prefix { $0 != "pan cancelled" }
        #expect(first.allSatisfy { $0 == "pan began" || $0 == "pan changed" })
        #expect(h.log[first.count] == "pan cancelled")
        #expect(h.events[first.count].time == 120 * ms)
        #expect(Array(h.log.suffix(from: first.count + 1)).first == "pan began")
        #expect(h.events.filter { $0.time > 120 * ms && $0.time < 400 * ms }.isEmpty)
        #expect(h.log.last == "pan ended")
        #expect(h.traceLog.contains("[left/pan] changed -> cancelled (a touch became a palm)"))
    }

    @Test func aTapWhoseTouchBecomesAPalmFailsAndTheRestOfTheFrameGoesOn() throws {
        let h = run(
            try model { m in
                m.gesture("left-tap", .tap, on: "left")
                m.gesture("right-tap", .tap, on: "right")
            }
        ) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 700, y: 100, at: 10 * ms)
            // In one frame: the left touch becomes a palm, the right one lifts.
            b.tool(1, .palm, at: 60 * ms)
            b.up(2, at: 60 * ms)
            b.up(1, at: 90 * ms)
        }
        #expect(h.log == ["right-tap recognized"])
        #expect(h.events.first?.time == 60 * ms)
        #expect(h.traceLog.contains("[left/left-tap] possible -> failed (a touch became a palm)"))
    }

    @Test func aHeldGestureWhoseTouchBecomesAPalmFailsAndReleasesNobody() throws {
        // The pan waits on a long press that tolerates 20 mm; the palm cancels both.
        let h = run(
            try model { m in
                m.gesture("pan", .pan, on: "left")
                m.gesture("press", .longPress, on: "left") { $0.longPress.allowableMovement = .millimeters(20) }
                m.require("pan", toFail: "press")
            }
        ) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.drag(1, toX: 140, toY: 100, from: 0, duration: 100 * ms, steps: 5)
            b.tool(1, .palm, at: 120 * ms)
            b.drag(1, toX: 300, toY: 100, from: 140 * ms, duration: 300 * ms, steps: 5)
            b.up(1, at: 500 * ms)
        }
        #expect(h.log.isEmpty)
        #expect(h.traceLog.contains("[left/pan] possible -> pending (required failure of press)"))
        #expect(h.traceLog.contains("[left/pan] pending -> failed (a touch became a palm)"))
        #expect(h.traceLog.contains("[left/press] possible -> failed (a touch became a palm)"))
    }

    @Test func aPinchLosingOneFingerToAPalmIsCancelledAndThePalmCountsForNothing() throws {
        let h = run(try model { m in m.gesture("pinch", .pinch, on: "left") }) { b in
            b.down(1, x: 200, y: 300, at: 0)
            b.down(2, x: 300, y: 300, at: 0)
            b.drag(2, toX: 400, toY: 300, from: 0, duration: 100 * ms, steps: 5)
            b.tool(2, .palm, at: 120 * ms)
            b.move(1, x: 150, y: 300, at: 140 * ms)
            b.up(1, at: 160 * ms)
            b.up(2, at: 200 * ms)
        }
        #expect(h.log.first == "pinch began")
        #expect(h.log.last == "pinch cancelled")
        #expect(h.events.last?.time == 120 * ms)
        // The pinch reset when its finger lifted, though the palm was still down.
        #expect(h.traceLog.last == "[left/pinch] cancelled -> possible (reset)")
        #expect(h.trace.last?.time == 160 * ms)
    }
}
