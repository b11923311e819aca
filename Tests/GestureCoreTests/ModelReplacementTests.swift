import GestureCore
import TestSupport
import Testing

@Suite struct ModelReplacementTests {
    func model(panEnabled: Bool = true, withSwipe: Bool = true) throws -> GestureModel {
        var m = ModelBuilder()
        m.view("button", frame: Rect(x: 700, y: 400, width: 200, height: 150))
        m.gesture("tap", .tap, on: "button")
        m.gesture("pan", .pan) { $0.enabled = panEnabled }
        if withSwipe {
            m.gesture("swipe", .swipe)
            m.require("pan", toFail: "swipe")
        }
        return try m.build()
    }

    @Test func disablingARunningGestureCancelsItAndOthersRunOn() throws {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.drag(1, toX: 200, toY: 100, from: 0, duration: 1000 * ms, steps: 20)
        let h = harness(try model(withSwipe: false), builder: b)
        h.run(b.frames)
        #expect(h.log.first == "pan began")
        h.replace(try model(panEnabled: false, withSwipe: false), at: 1000 * ms)
        #expect(h.events.last?.state == .cancelled)
        #expect(h.traceLog.last == "[root/pan] changed -> cancelled (disabled)")

        // The disabled pan gets nothing more; the unchanged tap still works.
        h.forgetEvents()
        var more = FrameBuilder()
        more.tap(2, x: 800, y: 450, at: 2000 * ms)
        more.down(3, x: 100, y: 100, at: 3000 * ms)
        more.drag(3, toX: 300, toY: 100, from: 3000 * ms, duration: 200 * ms, steps: 10)
        more.up(3, at: 3300 * ms)
        h.run(more.frames)
        #expect(h.log == ["tap recognized"])
    }

    @Test func anUnchangedGestureInFlightContinues() throws {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.drag(1, toX: 200, toY: 100, from: 0, duration: 1000 * ms, steps: 20)
        let h = harness(try model(withSwipe: false), builder: b)
        h.run(b.frames)
        var changed = try model(withSwipe: false)
        changed.gestures[0].tap.taps = 2  // the tap changes; the pan does not
        h.replace(changed, at: 1000 * ms)
        #expect(!h.log.contains("pan cancelled"))
        var tail = b
        tail.move(1, x: 250, y: 100, at: 1100 * ms)
        tail.up(1, at: 1200 * ms)
        h.run(tail.frames.suffix(2))
        #expect(h.log.suffix(2) == ["pan changed", "pan ended"])
    }

    /// Pan and swipe where the swipe declares the requirement (so the pan's own spec does not
    /// name it), on the root and the button.
    func declaredBySwipe(withSwipe: Bool) throws -> GestureModel {
        var m = ModelBuilder()
        m.gesture("pan", .pan)
        if withSwipe {
            m.gesture("swipe", .swipe)
            m.require("swipe", toBeFailedBefore: "pan")
        }
        return try m.build()
    }

    @Test func aPendingGestureWhoseRequirementIsRemovedBegins() throws {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.drag(1, toX: 120, toY: 100, from: 0, duration: 100 * ms, steps: 5)  // slow: the pan waits for the swipe
        let h = harness(try declaredBySwipe(withSwipe: true), builder: b)
        h.run(b.frames)
        #expect(h.log.isEmpty)
        #expect(h.engine.snapshot().gestures[0].pendingSince == 40 * ms)
        h.replace(try declaredBySwipe(withSwipe: false), at: 150 * ms)
        // The removed swipe counts as failed, so the pan begins (index 0 in both models).
        #expect(h.log == ["pan began"])
        #expect(h.events.first?.delayedFrom == 40 * ms && h.events.first?.time == 150 * ms)
        #expect(h.traceLog.contains("[root/pan] pending -> began (gesture 1 failed)"))
    }

    @Test func aPendingGestureWhoseSpecChangesIsDroppedSilently() throws {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.drag(1, toX: 120, toY: 100, from: 0, duration: 100 * ms, steps: 5)
        let h = harness(try model(), builder: b)
        h.run(b.frames)
        #expect(h.engine.snapshot().gestures[1].pendingSince != nil)
        h.replace(try model(withSwipe: false), at: 150 * ms)  // the pan's requireToFail changed
        #expect(h.log.isEmpty)
        #expect(h.engine.snapshot().gestures.allSatisfy { $0.pendingSince == nil })
        #expect(h.traceLog.contains("[root/pan] pending -> failed (configuration replaced)"))
    }
}

@Suite struct ScreenChangeTests {
    @Test func aNewScreenSizeRemapsAttachedDevices() throws {
        var small = ModelBuilder(screen: ScreenSize(width: 500, height: 300))
        small.gesture("tap", .tap)
        var large = ModelBuilder(screen: ScreenSize(width: 2000, height: 1200))
        large.gesture("tap", .tap)
        var b = FrameBuilder()
        b.tap(1, x: 500, y: 300, at: 0)  // the panel's middle
        let h = harness(try small.build(), builder: b)
        h.run(b.frames)
        #expect(h.events.last.map { [$0.x, $0.y] } == [250, 150])
        h.replace(try large.build(), at: 100 * ms)
        var again = FrameBuilder()
        again.tap(2, x: 500, y: 300, at: 200 * ms)
        h.run(again.frames)
        #expect(h.events.last.map { [$0.x, $0.y] } == [1000, 600])
    }
}
