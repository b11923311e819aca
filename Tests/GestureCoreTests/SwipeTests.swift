import GestureCore
import TestSupport
import Testing

@Suite struct SwipeTests {
    func swipe(to dx: Double, _ dy: Double, in duration: Int64, _ directions: Directions = .right) throws -> EngineHarness {
        run(try single(.swipe) { $0.swipe.directions = directions }) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.drag(1, toX: 500 + dx, toY: 300 + dy, from: 0, duration: duration, steps: 10)
            b.up(1, at: duration + 10 * ms)
        }
    }

    @Test func aQuickFlickInAnAllowedDirectionIsASwipe() throws {
        let h = try swipe(to: -80, 0, in: 100 * ms, [.left, .up])
        #expect(h.log == ["g recognized"])
        #expect(h.events.first?.direction == .left)
        let wrong = try swipe(to: 80, 0, in: 100 * ms, [.left, .up])
        #expect(wrong.log.isEmpty)
    }

    @Test func tooSlowFailsWhenTheDistanceIsReached() throws {
        // 20 mm in 450 ms: 44 mm/s average.
        let h = try swipe(to: 80, 0, in: 450 * ms)
        #expect(h.log.isEmpty)
        #expect(h.traceLog.contains { $0.contains("mm/s < 50 mm/s") })
    }

    @Test func theDeadlineIsInclusive() throws {
        // Reaching 10 mm exactly at 500 ms is too late: the deadline fires first.
        let model = try single(.swipe) { $0.swipe.minSpeed = 10 }
        let late = run(model) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.move(1, x: 541, y: 300, at: 500 * ms)
            b.up(1, at: 510 * ms)
        }
        #expect(late.log.isEmpty)
        #expect(late.traceLog.contains("[root/g] possible -> failed (not swiped within 500 ms)"))
        let inTime = run(model) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.move(1, x: 541, y: 300, at: 500 * ms - 1)
            b.up(1, at: 510 * ms)
        }
        #expect(inTime.log == ["g recognized"])
    }

    @Test func offAxisFails() throws {
        // 35 degrees off the right axis.
        let h = try swipe(to: 80 * 0.819, 80 * 0.574, in: 100 * ms)
        #expect(h.log.isEmpty)
        #expect(h.traceLog.contains("[root/g] possible -> failed (off axis by 34.88 deg > 30 deg)")) // 35 deg in 0.1 px device units
        let within = try swipe(to: 80 * 0.906, 80 * 0.423, in: 100 * ms) // 25 degrees
        #expect(within.log == ["g recognized"])
    }

    @Test func reversalFails() throws {
        let h = run(try single(.swipe)) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.move(1, x: 530, y: 300, at: 30 * ms)
            b.move(1, x: 515, y: 300, at: 60 * ms)
            b.move(1, x: 560, y: 300, at: 90 * ms)
        }
        #expect(h.log.isEmpty)
        #expect(h.traceLog.contains("[root/g] possible -> failed (reversed by 3.75 mm)"))
    }

    @Test func twoFingerSwipeNeedsBoth() throws {
        let model = try single(.swipe) { $0.swipe.touches = 2 }
        let h = run(model) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.down(2, x: 500, y: 400, at: 0)
            for step in 1...10 {
                b.move(1, x: 500 + 8 * Double(step), y: 300, at: Int64(step) * 10 * ms)
                b.move(2, x: 500 + 8 * Double(step), y: 400, at: Int64(step) * 10 * ms)
            }
        }
        #expect(h.log == ["g recognized"])
        #expect(h.events.first?.touches == 2)
        let one = run(model) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.drag(1, toX: 580, toY: 300, from: 0, duration: 100 * ms, steps: 10)
        }
        #expect(one.log.isEmpty)
        #expect(one.traceLog.contains("[root/g] possible -> failed (1 touches < 2)"))
    }
}
