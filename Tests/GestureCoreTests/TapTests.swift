import GestureCore
import TestSupport
import Testing

@Suite struct TapTests {
    @Test func aTapIsRecognizedOnceAtLiftWithItsLocation() throws {
        let h = run(try single(.tap)) { $0.tap(1, x: 100, y: 200, at: 0) }
        #expect(h.log == ["g recognized"])
        let e = try #require(h.events.first)
        #expect(e.time == 80 * ms)
        #expect(e.x == 100 && e.y == 200 && e.touches == 1)
        #expect(e.delayedFrom == nil)
    }

    @Test func movementComparesExclusively() throws {
        // 3 mm = 12 px exactly: still a tap; 12.4 px (3.1 mm) is not.
        let atLimit = run(try single(.tap)) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 112, y: 100, at: 20 * ms)
            b.up(1, at: 40 * ms)
        }
        #expect(atLimit.log == ["g recognized"])
        let beyond = run(try single(.tap)) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 112.4, y: 100, at: 20 * ms)
            b.up(1, at: 40 * ms)
        }
        #expect(beyond.log.isEmpty)
        #expect(beyond.traceLog.contains("[root/g] possible -> failed (moved 3.1 mm > 3 mm)"))
    }

    @Test func minPressRejectsGhostContactsAndIsInclusive() throws {
        let model = try single(.tap) { $0.tap.minPress = 60 * ms }
        let ghost = run(model) { $0.tap(1, x: 100, y: 100, at: 0, duration: 40 * ms) }
        #expect(ghost.log.isEmpty)
        #expect(ghost.traceLog.contains("[root/g] possible -> failed (held 40 ms < 60 ms)"))
        let exact = run(model) { $0.tap(1, x: 100, y: 100, at: 0, duration: 60 * ms) }
        #expect(exact.log == ["g recognized"])
    }

    @Test func doubleTapIntervalIsInclusive() throws {
        let model = try single(.tap) { $0.tap.taps = 2 }
        // Lift at 80 ms; the next tap may go down at 80 + 350 ms exactly.
        let exact = run(model) { b in
            b.tap(1, x: 100, y: 100, at: 0)
            b.tap(2, x: 104, y: 100, at: 430 * ms)
        }
        #expect(exact.log == ["g recognized"])
        let late = run(model) { b in
            b.tap(1, x: 100, y: 100, at: 0)
            b.tap(2, x: 104, y: 100, at: 430 * ms + 1)
        }
        #expect(late.log.isEmpty)
        #expect(late.traceLog.contains("[root/g] possible -> failed (no next tap within 350 ms)"))
    }

    @Test func theSecondTapMustLandNearTheFirst() throws {
        let model = try single(.tap) { $0.tap.taps = 2 }
        let far = run(model) { b in
            b.tap(1, x: 100, y: 100, at: 0)
            b.tap(2, x: 141, y: 100, at: 200 * ms)  // 10.25 mm away
        }
        #expect(far.log.isEmpty)
        #expect(far.traceLog.contains("[root/g] possible -> failed (next tap 10.25 mm > 10 mm away)"))
    }

    @Test func twoFingerTapNeedsBothDownAtOnce() throws {
        let model = try single(.tap) { $0.tap.touches = 2 }
        let together = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 200, y: 100, at: 10 * ms)
            b.up(1, at: 60 * ms)
            b.up(2, at: 70 * ms)
        }
        #expect(together.log == ["g recognized"])
        #expect(together.events.first?.touches == 2)
        #expect(together.events.first?.x == 150)
        let apart = run(model) { b in
            b.tap(1, x: 100, y: 100, at: 0, duration: 30 * ms)
            b.tap(2, x: 200, y: 100, at: 40 * ms, duration: 30 * ms)
        }
        #expect(apart.log.isEmpty)
    }

    @Test func aRecognizerResetsOnlyWhenItsOwnContactsLift() throws {
        // A palm resting elsewhere (outside the button) must not freeze the button's tap.
        var m = ModelBuilder()
        m.view("button", frame: Rect(x: 0, y: 0, width: 200, height: 200))
        m.gesture("tap", .tap, on: "button")
        let h = run(try m.build()) { b in
            b.down(9, x: 800, y: 500, at: 0)  // resting palm on the root
            b.tap(1, x: 100, y: 100, at: 100 * ms)
            b.tap(2, x: 100, y: 100, at: 400 * ms)
        }
        #expect(h.log == ["tap recognized", "tap recognized"])
    }
}
