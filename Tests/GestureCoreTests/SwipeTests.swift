import GestureCore
import TestSupport
import Testing

@Suite struct SwipeTests {
    func swipe(to dx: Double, _ dy: Double, in duration: Int64, _ directions: Directions = .right) throws -> PipelineHarness {
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
        // 35 deg in 0.1 px device units, judged on the completed stroke at the lift.
        #expect(h.traceLog.contains("[root/g] possible -> failed (off axis by 35.02 deg > 30 deg)"))
        let within = try swipe(to: 80 * 0.906, 80 * 0.423, in: 100 * ms)  // 25 degrees
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

    // The stroke as a whole (issue 11): a hook decides nothing, a drag still fails promptly.

    /// 12 mm right and 6 mm up in 50 ms (27 deg off the right axis), then a fling up to 45 mm:
    /// a person sees a fling up. Its first 10 mm alone would have been a right swipe.
    @Test(arguments: [[Directions.up, .down, .left, .right], [.up]])
    func aHookThenAFlingIsJudgedByTheStroke(directions: [Directions]) throws {
        let h = run(try single(.swipe) { $0.swipe.directions = Directions(directions) }) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.drag(1, toX: 548, toY: 276, from: 0, duration: 50 * ms, steps: 5)
            b.drag(1, toX: 540, toY: 120, from: 50 * ms, duration: 100 * ms, steps: 10)
            b.up(1, at: 160 * ms)
        }
        #expect(h.log == ["g recognized"])
        #expect(h.events.first?.direction == .up)
    }

    /// A drag from (500, 300) to `(x, y)` px over `duration` in 8 ms frames, with a swipe in
    /// every direction: when the swipe failed, and why.
    func slowDrag(toX x: Double, y: Double, in duration: Int64) throws -> (time: Int64, reason: String) {
        let h = run(try single(.swipe) { $0.swipe.directions = [.up, .down, .left, .right] }) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.drag(1, toX: x, toY: y, from: 0, duration: duration, steps: Int(duration / (8 * ms)))
            b.up(1, at: duration + 10 * ms)
        }
        let failed = try #require(h.trace.first { $0.to == .failed })
        return (failed.time, failed.reason.describe(in: h.engine.model))
    }

    /// A drag at 40 mm/s, 45 deg off both axes: slower than twice min_speed, so it must keep
    /// within max_angle, and fails as soon as it leaves the 2 mm jitter allowance (50 ms).
    @Test func aSlowDiagonalDragFailsAsSoonAsItMoves() throws {
        let failed = try slowDrag(toX: 600, y: 400, in: 880 * ms)  // 35 mm
        #expect(failed.time <= 60 * ms)
        #expect(failed.reason.hasPrefix("off axis by 45"))
    }

    /// A drag straight right at 25 mm/s fails as too slow once it has gone 4 mm (twice the
    /// jitter allowance, 160 ms), not only when it has gone min_distance (400 ms).
    @Test func aSlowDragAlongTheAxisFailsAfterFourMillimetres() throws {
        let failed = try slowDrag(toX: 600, y: 300, in: 1000 * ms)
        #expect(failed.time <= 170 * ms)
        #expect(failed.reason.hasSuffix("mm/s < 50 mm/s"))
    }

    /// A finger that rests 200 ms (no frames, as many panels send none for a still finger)
    /// and then flicks: the average since touch-down starts low, but the stroke is fast now.
    @Test func aRestThenAFlickIsASwipe() throws {
        let h = run(try single(.swipe)) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.drag(1, toX: 740, toY: 300, from: 200 * ms, duration: 100 * ms, steps: 10)  // 60 mm
            b.up(1, at: 310 * ms)
        }
        #expect(h.log == ["g recognized"])
    }

    /// Mid-stroke a swipe needs twice min_distance at touch-down (falling to min_distance at
    /// max_duration); the lift completes the stroke, which then needs only min_distance.
    @Test func aShortFlickIsRecognizedWhenItLifts() throws {
        func flick(px: Double) -> PipelineHarness {
            run(try! single(.swipe)) { b in
                b.down(1, x: 500, y: 300, at: 0)
                b.drag(1, toX: 500 + px, toY: 300, from: 0, duration: 60 * ms, steps: 6)
                b.up(1, at: 70 * ms)
            }
        }
        let h = flick(px: 48)  // 12 mm
        #expect(h.log == ["g recognized"])
        #expect(h.events.first?.time == 70 * ms)
        #expect(flick(px: 36).log.isEmpty)  // 9 mm
    }

    /// `jitter` is how far a stroke may come back along its direction.
    @Test func jitterIsTheReversalAllowance() throws {
        func back3mm(_ jitter: Length) -> PipelineHarness {
            run(try! single(.swipe) { $0.swipe.jitter = jitter }) { b in
                b.down(1, x: 500, y: 300, at: 0)
                b.move(1, x: 540, y: 300, at: 40 * ms)
                b.move(1, x: 528, y: 300, at: 60 * ms)
                b.drag(1, toX: 620, toY: 300, from: 60 * ms, duration: 60 * ms, steps: 6)
                b.up(1, at: 130 * ms)
            }
        }
        #expect(back3mm(.millimeters(2)).traceLog.contains("[root/g] possible -> failed (reversed by 3 mm)"))
        #expect(back3mm(.millimeters(4)).log == ["g recognized"])
    }
}
