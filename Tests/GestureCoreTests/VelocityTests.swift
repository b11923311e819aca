import GestureCore
import TestSupport
import Testing

/// Velocities average the recent window (`GestureDefaults.velocityWindow`), so irregular
/// frame intervals and sensor jitter do not make them jump, and the ended event carries the
/// velocity at release.
@Suite struct VelocityTests {
    /// 8 ms frames whose positions jitter ±1 px around a 1000 px/s line: the last frame's
    /// step alone reads 750 or 1250 px/s.
    @Test func panVelocityIsSteadyUnderJitter() throws {
        let h = run(try single(.pan)) { b in
            b.down(1, x: 100, y: 300, at: 0)
            for step in 1...40 {
                let t = Int64(step) * 8 * ms
                b.move(1, x: 100 + Double(step) * 8 + (step.isMultiple(of: 2) ? 1 : -1), y: 300, at: t)
            }
            b.up(1, at: 320 * ms)
        }
        let pan = h.events(of: "g")
        #expect(pan.last?.state == .ended)
        let settled = pan.filter { $0.time >= 100 * ms }
        #expect(settled.count > 20)
        for e in settled {
            #expect(abs(e.velocityX - 1000) < 25, "velocity \(e.velocityX) at \(e.time)")
            #expect(e.velocityY == 0)
        }
    }

    /// The release frame comes 2 ms after the previous move, 1 px on: the ended event still
    /// reports the fling's 1000 px/s (the last step alone: 500 px/s).
    @Test func panEndedCarriesTheReleaseVelocity() throws {
        let h = run(try single(.pan)) { b in
            b.down(1, x: 100, y: 300, at: 0)
            for step in 1...10 { b.move(1, x: 100 + Double(step) * 10, y: 300, at: Int64(step) * 10 * ms) }
            b.move(1, x: 201, y: 300, at: 102 * ms)
            b.up(1, at: 102 * ms)
        }
        let ended = try #require(h.events(of: "g").last)
        #expect(ended.state == .ended)
        #expect(abs(ended.velocityX - 1000) < 15, "release velocity \(ended.velocityX)")
    }

    /// A finger that stops and rests longer than the window before lifting releases at zero.
    @Test func aReleaseAfterAPauseHasNoVelocity() throws {
        let h = run(try single(.pan)) { b in
            b.down(1, x: 100, y: 300, at: 0)
            b.drag(1, toX: 200, toY: 300, from: 0, duration: 100 * ms, steps: 10)
            b.up(1, at: 100 * ms + GestureDefaults.velocityWindow + 1)
        }
        let pan = h.events(of: "g")
        #expect(abs((pan.dropLast().last?.velocityX ?? 0) - 1000) < 1e-6)
        let ended = try #require(pan.last)
        #expect(ended.state == .ended && ended.velocityX == 0)
    }

    /// Two fingers spread at a steady rate, with frames at alternately 4 and 12 ms: the
    /// scale's velocity stays smooth; the last frame alone swings by a factor of about 3.
    @Test func pinchVelocityIsSteadyOverIrregularFrames() throws {
        let h = run(try single(.pinch)) { b in
            b.down(1, x: 400, y: 300, at: 0)
            b.down(2, x: 600, y: 300, at: 0)
            var t: Int64 = 0
            for step in 1...40 {
                t += step.isMultiple(of: 2) ? 4 * ms : 12 * ms
                // Even steps of span at uneven times: 0.1 px per ms on average, as a
                // panel whose frames are timestamped with jitter reports it.
                let span = 100 + 0.1 * Double(8 * step)
                b.move(1, x: 500 - span, y: 300, at: t)
                b.move(2, x: 500 + span, y: 300, at: t)
            }
            b.up(1, at: t)
            b.up(2, at: t)
        }
        let pinch = h.events(of: "g").filter { $0.time >= 150 * ms }
        #expect(pinch.count > 10)
        let rates = pinch.map(\.velocity)
        let spread = (rates.max() ?? 0) / (rates.min() ?? 1)
        #expect(spread < 1.3, "pinch velocity swings \(rates)")
        // The ended event reports the release rate, not zero.
        #expect(pinch.last?.state == .ended && (pinch.last?.velocity ?? 0) > 0.5)
    }

    /// Same for rotation: steady turn, alternating 4 / 12 ms frames.
    @Test func rotationVelocityIsSteadyOverIrregularFrames() throws {
        let h = run(try single(.rotation)) { b in
            b.down(1, x: 400, y: 300, at: 0)
            b.down(2, x: 600, y: 300, at: 0)
            var t: Int64 = 0
            for step in 1...40 {
                t += step.isMultiple(of: 2) ? 4 * ms : 12 * ms
                let a = 0.008 * Double(step)  // 1 rad/s on average
                b.move(2, x: 400 + 200 * cosine(a), y: 300 + 200 * sine(a), at: t)
            }
            b.up(1, at: t)
            b.up(2, at: t)
        }
        let rotation = h.events(of: "g").filter { $0.time >= 150 * ms }
        #expect(rotation.count > 10)
        for e in rotation {
            #expect(abs(e.velocity - 1) < 0.15, "rotation velocity \(e.velocity) at \(e.time)")
        }
        #expect(rotation.last?.state == .ended)
    }
}
