import GestureCore
import TestSupport
import Testing

/// Random streams through the health stage with every rule on and tight thresholds: the
/// stage's promises hold whatever the panel does (what the pipeline's fuzz target checks).
@Suite struct TouchHealthPropertyTests {
    /// Every rule on, with thresholds a random stream meets often.
    static func everyRule(hold: Bool, jump: Bool) -> TouchHealthSettings {
        var s = TouchHealthSettings()
        s.masks = [Rect(x: 0, y: 0, width: 100, height: 100)]
        s.minContact = 60_000
        s.holdNewContacts = hold
        s.farApart = .millimeters(100)
        s.aligned = .millimeters(0.5)
        var spot = TouchHealthSettings.Spot(count: 3)
        spot.radius = .millimeters(5)
        spot.release = 2_000_000
        s.spot = spot
        s.jump = jump ? .millimeters(20) : nil
        s.edgeHold = .millimeters(1)
        s.stuckAfter = 500_000
        s.noisy = TouchHealthSettings.Noisy(perMinute: 5)
        s.silentAfter = 2_000_000
        return s
    }

    /// A random panel: contacts go down (often on a few spots, in rows, in a mask), move a
    /// little or jump, rest, lift or are cancelled; time runs in frames and gaps.
    static func stream(seed: UInt64) -> [TouchFrame] {
        var random = SeededGenerator(seed: seed)
        var b = FrameBuilder()
        var live: [Int32] = []
        var comingBack: [Int32: (x: Double, y: Double)] = [:]
        var nextID: Int32 = 1
        var t: Int64 = 0
        let spots: [(Double, Double)] = [(500, 300), (50, 50), (800, 100), (999.9, 300)]
        for _ in 0..<300 {
            t +=
                random.chance(0.05)
                ? Int64.random(in: 500_000...3_000_000, using: &random) : Int64.random(in: 1_000...40_000, using: &random)
            var justDown: Int32?
            if live.count < 6, random.chance(0.3) {
                let (x, y): (Double, Double) =
                    random.chance(0.4)
                    ? spots[Int.random(in: 0..<spots.count, using: &random)]
                    : (Double.random(in: 0...999, using: &random), Double.random(in: 0...599, using: &random))
                b.down(nextID, x: x, y: y, at: t)
                live.append(nextID)
                justDown = nextID
                nextID += 1
            }
            for id in live where comingBack[id] != nil || random.chance(0.5) {
                guard let p = b.position(id) else { continue }
                // One report off the path, then back on it (an outlier).
                if let back = comingBack.removeValue(forKey: id) {
                    b.move(id, x: back.x, y: back.y, at: t)
                    continue
                }
                let step = random.chance(0.1) ? 200.0 : 4.0
                if step > 4, random.chance(0.5) { comingBack[id] = p }
                b.move(
                    id, x: min(999, max(0, p.x + Double.random(in: -step...step, using: &random))),
                    y: min(599, max(0, p.y + Double.random(in: -step...step, using: &random))), at: t)
            }
            // Not one that went down in this frame: the builder would report only its lift.
            if let i = live.indices.randomElement(using: &random), live[i] != justDown, random.chance(0.25) {
                if random.chance(0.1) { b.cancel(live[i], at: t) } else { b.up(live[i], at: t) }
                live.remove(at: i)
            }
            b.hold(at: t)
        }
        t += 10_000
        for id in live { b.up(id, at: t) }
        return b.frames
    }

    @Test(arguments: [(true, true), (false, true), (true, false), (false, false)])
    func theStagesPromisesHoldOnRandomStreams(hold: Bool, jump: Bool) {
        var filteredByRule: [HealthRule: Int] = [:]
        for seed in UInt64(1)...20 {
            let frames = Self.stream(seed: seed)
            let h = HealthRun(Self.everyRule(hold: hold, jump: jump))
            h.run(frames, until: frames.last!.time + 10_000_000)
            #expect(h.violations.isEmpty, "seed \(seed): \(h.violations.prefix(3))")
            // Every contact shown ended, since every input contact ended.
            #expect(h.open.isEmpty, "seed \(seed): still open \(h.open.sorted())")
            #expect(h.stage.watchedContacts.down == 0, "seed \(seed)")
            if !jump {
                // Without splits, output ids are input ids: one dropped unseen never shows.
                for f in h.filtered where !f.wasShown {
                    #expect(!h.shown.contains(f.id), "seed \(seed): contact \(f.id) dropped by \(f.rule) was shown")
                }
            }
            for f in h.filtered { filteredByRule[f.rule, default: 0] += 1 }
        }
        // The streams reach every rule (a jump and an outlier only when jumps are on; a
        // ghost shown then cancelled as well as one held).
        let expected = HealthRule.allCases.filter { jump || ($0 != .jump && $0 != .outlier) }
        #expect(Set(filteredByRule.keys) == Set(expected), "\(filteredByRule)")
    }
}
