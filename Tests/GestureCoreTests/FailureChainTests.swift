import GestureCore
import TestSupport
import Testing

/// Chains of failure requirements (the seeds' "preferring one gesture over another"): a
/// recognition excludes its rivals before the failures it causes release anyone.
@Suite struct FailureChainTests {
    /// How one "waits for the other to fail" edge is written.
    enum Side: CaseIterable { case onTheWaitingGesture, onTheOther }

    /// One model per declaration order of `taps` (gesture name and taps) and per side of each
    /// edge of the chain `taps[0]` waits on `taps[1]`, which waits on `taps[2]`...
    static func models(_ taps: [(String, Int)]) throws -> [GestureModel] {
        var sides: [[Side]] = [[]]
        for _ in 1..<taps.count { sides = sides.flatMap { s in Side.allCases.map { s + [$0] } } }
        var models: [GestureModel] = []
        for order in permutations(taps) {
            for edges in sides {
                var m = ModelBuilder()
                for (name, count) in order { m.gesture(name, .tap) { $0.tap.taps = count } }
                for (k, side) in edges.enumerated() {
                    let waiting = taps[k].0
                    let other = taps[k + 1].0
                    switch side {
                    case .onTheWaitingGesture: m.require(waiting, toFail: other)
                    case .onTheOther: m.require(other, toBeFailedBefore: waiting)
                    }
                }
                models.append(try m.build())
            }
        }
        return models
    }

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i in
            var rest = items
            let first = rest.remove(at: i)
            return permutations(rest).map { [first] + $0 }
        }
    }

    static let threeLevels = [("tap", 1), ("double", 2), ("triple", 3)]
    static let twoLevels = [("tap", 1), ("double", 2)]

    /// `count` taps 200 ms apart at one place.
    func taps(_ count: Int) -> (inout FrameBuilder) -> Void {
        { b in for k in 0..<count { b.tap(Int32(k + 1), x: 300 + Double(k), y: 200, at: Int64(k) * 200 * ms) } }
    }

    /// The run fired `name` only, held from the lift at `lift` until the tap interval after it
    /// had passed.
    func expectOnly(
        _ name: String, heldFromLiftAt lift: Int64, _ h: PipelineHarness,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(h.log == ["\(name) recognized"], "\(h.engine.model.gestures.map(\.name))", sourceLocation: sourceLocation)
        let event = try #require(h.events.first, sourceLocation: sourceLocation)
        #expect(event.delayedFrom == lift, sourceLocation: sourceLocation)
        #expect(event.time == lift + 350 * ms + 1, sourceLocation: sourceLocation)
    }

    @Test func thereAreTwentyFourThreeLevelModels() throws {
        #expect(try Self.models(Self.threeLevels).count == 6 * 4)
        #expect(try Self.models(Self.twoLevels).count == 2 * 2)
    }

    @Test func aTripleTapFiresOnlyTheTripleTap() throws {
        for model in try Self.models(Self.threeLevels) {
            let h = run(model, taps(3))
            #expect(h.log == ["triple recognized"], "\(model.gestures.map(\.name))")
            #expect(h.events.first?.delayedFrom == nil)
            // The tap, held by the double, is excluded by the triple before the double's failure could release it.
            #expect(h.traceLog.contains("[root/tap] pending -> failed (prevented by triple)"), "\(h.traceLog)")
            #expect(h.traceLog.contains("[root/double] pending -> failed (triple recognized)"), "\(h.traceLog)")
            #expect(h.engine.snapshot().engineBugs == 0)
        }
    }

    @Test func aDoubleTapFiresOnlyTheDoubleTapOnceTheTripleCannotCome() throws {
        for model in try Self.models(Self.threeLevels) {
            let h = run(model, taps(2))
            try expectOnly("double", heldFromLiftAt: 280 * ms, h)
            #expect(h.traceLog.contains("[root/double] possible -> pending (required failure of triple)"))
            #expect(h.traceLog.contains("[root/tap] pending -> failed (double recognized)"), "\(h.traceLog)")
        }
        for model in try Self.models(Self.twoLevels) {
            let h = run(model, taps(2))
            #expect(h.log == ["double recognized"], "\(model.gestures.map(\.name))")
            #expect(h.events.first?.delayedFrom == nil)
        }
    }

    @Test func aSingleTapFiresOnlyTheSingleTapAfterTheInterval() throws {
        for model in try Self.models(Self.threeLevels) + Self.models(Self.twoLevels) {
            let h = run(model, taps(1))
            try expectOnly("tap", heldFromLiftAt: 80 * ms, h)
            #expect(h.traceLog.contains("[root/tap] possible -> pending (required failure of double)"))
            #expect(h.traceLog.contains("[root/tap] pending -> recognized (double failed)"))
        }
    }

    @Test func aTwoLevelChainOfTripleTapsFiresOnlyTheTriple() throws {
        // tap waits on triple (no double): the third tap excludes the held tap directly.
        for model in try Self.models([("tap", 1), ("triple", 3)]) {
            let h = run(model, taps(3))
            #expect(h.log == ["triple recognized"])
        }
    }

    @Test func aGestureThatCannotBePreventedIsReleasedByTheFailureTheRecognitionCaused() throws {
        // The exclusion honours canPrevent: a triple that cannot prevent the tap leaves it to
        // its requirement, and the double's failure (caused by the triple) releases it.
        var m = ModelBuilder()
        m.gesture("tap", .tap)
        m.gesture("double", .tap) { $0.tap.taps = 2 }
        m.gesture("triple", .tap) { $0.tap.taps = 3 }
        m.require("tap", toFail: "double")
        m.require("double", toFail: "triple")
        var model = try m.build()
        model.gestures[2].cannotPrevent = [0]
        let h = run(try GestureModel(screen: model.screen, views: model.views, gestures: model.gestures), taps(3))
        #expect(h.log == ["triple recognized", "tap recognized"])
        #expect(h.traceLog.contains("[root/tap] pending -> recognized (double failed)"))
    }
}
