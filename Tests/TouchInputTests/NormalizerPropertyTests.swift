import GestureCore
import TestSupport
import Testing

@testable import TouchInput

/// Random event streams, including the ones real devices should never send (repeated and
/// colliding tracking ids, out-of-range slots, SYN_DROPPED anywhere): whatever comes in,
/// every began contact gets exactly one ended or cancelled, ids are never reused, and every
/// live contact appears in every frame (checked by `ContactLedger`).
@Suite struct NormalizerPropertyTests {
    static let seeds: [UInt64] = Array(1...200)

    @Test(arguments: seeds)
    func protocolBStreamsKeepTheContactInvariants(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let slots = Int32.random(in: 1...6, using: &random)
        let h = Harness(Fixture.protocolB(slots: slots, pressure: random.chance(0.5)))
        var stream = Stream()
        for _ in 0..<400 {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<12: stream = stream.slot(Int32.random(in: -1...(slots + 1), using: &random))
            case 12..<30: stream = stream.track(random.chance(0.35) ? -1 : Int32.random(in: 0...7, using: &random))
            case 30..<45: stream = stream.x(Int32.random(in: -50...1050, using: &random))
            case 45..<60: stream = stream.y(Int32.random(in: -50...550, using: &random))
            case 60..<65: stream = stream.pressure(Int32.random(in: 0...255, using: &random))
            case 65..<68: stream = stream.touch(random.chance(0.5))
            case 68..<70: stream = stream.dropped()
            default: stream = stream.report()
            }
        }
        check(h, stream.report())
    }

    @Test(arguments: seeds.prefix(60))
    func protocolAStreamsKeepTheContactInvariants(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let h = Harness(Fixture.protocolA())
        var stream = Stream()
        for _ in 0..<150 {
            let fingers = Int.random(in: 0...4, using: &random)
            for _ in 0..<fingers {
                stream = stream.x(Int32.random(in: 0...1000, using: &random)).y(Int32.random(in: 0...500, using: &random)).mtReport()
            }
            stream = stream.touch(fingers > 0)
            if random.chance(0.03) { stream = stream.dropped() }
            stream = stream.report()
        }
        check(h, stream.touch(false).report())
    }

    @Test(arguments: seeds.prefix(60))
    func singleTouchStreamsKeepTheContactInvariants(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let h = Harness(Fixture.singleTouch())
        var stream = Stream()
        for _ in 0..<300 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<2: stream = stream.touch(random.chance(0.5))
            case 2..<4: stream = stream.absX(Int32.random(in: 0...1000, using: &random))
            case 4..<6: stream = stream.absY(Int32.random(in: 0...500, using: &random))
            case 6: stream = stream.dropped()
            default: stream = stream.report()
            }
        }
        check(h, stream.report())
    }

    /// Runs the stream, unplugs the device, and checks the ledger.
    private func check(_ h: Harness, _ stream: Stream) {
        h.run(stream)
        if h.normalizer.cancelAll(at: stream.time) { h.ledger.record(h.normalizer.frame) }
        #expect(h.ledger.violations.isEmpty, "\(h.ledger.violations.prefix(3))")
        #expect(h.ledger.live.isEmpty, "live after cancelAll: \(h.ledger.live)")
        // The generators make contacts; a stream without any would test nothing.
        #expect(h.ledger.contacts > 0)
        #expect(h.ledger.frames == h.normalizer.counters.frames)
    }
}
