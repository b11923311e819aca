import GestureCore
import TestSupport
import Testing

/// The classic cases of docs/SEMANTICS.md, each exactly as the seeds describe it.
@Suite struct ClassicCaseTests {
    // MARK: 1. single tap waiting for a double tap

    func tapAndDoubleTap(declaredOnDouble: Bool) throws -> GestureModel {
        var m = ModelBuilder()
        m.gesture("double-tap", .tap) { $0.tap.taps = 2 }
        m.gesture("tap", .tap)
        if declaredOnDouble { m.require("double-tap", toBeFailedBefore: "tap") } else { m.require("tap", toFail: "double-tap") }
        return try m.build()
    }

    @Test(arguments: [false, true])
    func oneTapFiresTheSingleTapAfterTheIntervalWithItsOwnLocation(declaredOnDouble: Bool) throws {
        let model = try tapAndDoubleTap(declaredOnDouble: declaredOnDouble)
        var b = FrameBuilder()
        b.tap(1, x: 300, y: 200, at: 0)
        let h = harness(model, builder: b)
        h.run(b.frames)
        #expect(h.log.isEmpty)
        // Visibly pending while the double tap may still come.
        let status = h.engine.snapshot().gestures[h.engine.model.gestures.firstIndex { $0.name == "tap" }!]
        #expect(status.pendingSince == 80 * ms)
        #expect(h.engine.nextDeadline == 80 * ms + 350 * ms + 1)
        h.settle()
        #expect(h.log == ["tap recognized"])
        let e = try #require(h.events.first)
        #expect(e.time == 430 * ms + 1)
        #expect(e.delayedFrom == 80 * ms)
        #expect(e.x == 300 && e.y == 200)
        #expect(h.traceLog.contains("[root/tap] possible -> pending (required failure of double-tap)"))
        #expect(h.traceLog.contains("[root/tap] pending -> recognized (double-tap failed)"))
    }

    @Test(arguments: [false, true])
    func twoQuickTapsFireOnlyTheDoubleTap(declaredOnDouble: Bool) throws {
        let h = run(try tapAndDoubleTap(declaredOnDouble: declaredOnDouble)) { b in
            b.tap(1, x: 300, y: 200, at: 0)
            b.tap(2, x: 302, y: 201, at: 200 * ms)
        }
        #expect(h.log == ["double-tap recognized"])
        #expect(h.traceLog.contains("[root/tap] pending -> failed (double-tap recognized)"))
    }

    @Test(arguments: [("double-tap", "tap"), ("b-double", "a-single")])
    func withoutTheRuleADoubleTapFiresTheSingleTapThenTheDoubleTap(names: (double: String, single: String)) throws {
        // UIKit: a tap never prevents a tap with a higher tap count. The single tap recognizes
        // at the first lift and leaves the double tap running; at the second lift the double
        // tap (asked first, whatever the names) recognizes and prevents the single tap.
        var m = ModelBuilder()
        m.gesture(names.double, .tap) { $0.tap.taps = 2 }
        m.gesture(names.single, .tap)
        let h = run(try m.build()) { b in
            b.tap(1, x: 300, y: 200, at: 0)
            b.tap(2, x: 302, y: 201, at: 200 * ms)
        }
        #expect(h.log == ["\(names.single) recognized", "\(names.double) recognized"])
        #expect(h.events.map(\.time) == [80 * ms, 280 * ms])
        #expect(h.traceLog.contains("[root/\(names.single)] possible -> failed (prevented by \(names.double))"))
        #expect(!h.traceLog.contains { $0.hasPrefix("[root/\(names.double)] possible -> failed") })
    }

    @Test func cannotPreventComposesWithTheTapRule() throws {
        // The double tap declared unable to prevent the single one: both fire on the second tap.
        var m = ModelBuilder()
        m.gesture("double-tap", .tap) { $0.tap.taps = 2 }
        m.gesture("tap", .tap) { $0.cannotBePreventedBy = [0] }
        let h = run(try m.build()) { b in
            b.tap(1, x: 300, y: 200, at: 0)
            b.tap(2, x: 302, y: 201, at: 200 * ms)
        }
        #expect(h.log == ["tap recognized", "double-tap recognized", "tap recognized"])
    }

    @Test func aTapStillPreventsATapWithAsManyOrFewerTaps() throws {
        // Two single taps on one view: the first asked (by name) wins, the other is prevented.
        var m = ModelBuilder()
        m.gesture("b", .tap)
        m.gesture("a", .tap)
        let h = run(try m.build()) { $0.tap(1, x: 300, y: 200, at: 0) }
        #expect(h.log == ["a recognized"])
        #expect(h.traceLog.contains("[root/b] possible -> failed (prevented by a)"))
    }

    // MARK: 2. pan versus swipe

    enum PanSwipeRule: CaseIterable { case none, panRequiresSwipe, swipeRequiredByPan }

    func panAndSwipe(_ rule: PanSwipeRule, swipeFirst: Bool = false) throws -> GestureModel {
        var m = ModelBuilder()
        if swipeFirst { m.gesture("swipe", .swipe) }
        m.gesture("pan", .pan)
        if !swipeFirst { m.gesture("swipe", .swipe) }
        switch rule {
        case .none: break
        case .panRequiresSwipe: m.require("pan", toFail: "swipe")
        case .swipeRequiredByPan: m.require("swipe", toBeFailedBefore: "pan")
        }
        return try m.build()
    }

    /// 15 mm right in 100 ms: 150 mm/s.
    func flick(_ b: inout FrameBuilder) {
        b.down(1, x: 100, y: 300, at: 0)
        b.drag(1, toX: 160, toY: 300, from: 0, duration: 100 * ms, steps: 10)
        b.up(1, at: 110 * ms)
    }

    /// 25 mm right in 1 s: 25 mm/s.
    func slowDrag(_ b: inout FrameBuilder) {
        b.down(1, x: 100, y: 300, at: 0)
        b.drag(1, toX: 200, toY: 300, from: 0, duration: 1000 * ms, steps: 100)
        b.up(1, at: 1010 * ms)
    }

    @Test func withoutARuleThePanWinsAndTheSwipeNeverFires() throws {
        let h = run(try panAndSwipe(.none)) { flick(&$0) }
        #expect(h.log.first == "pan began")
        #expect(h.log.last == "pan ended")
        #expect(!h.log.contains("swipe recognized"))
        #expect(h.traceLog.contains("[root/swipe] possible -> failed (prevented by pan)"))
    }

    @Test(arguments: [PanSwipeRule.panRequiresSwipe, .swipeRequiredByPan], [false, true])
    func withTheRuleAFlickIsASwipe(rule: PanSwipeRule, swipeFirst: Bool) throws {
        let h = run(try panAndSwipe(rule, swipeFirst: swipeFirst)) { flick(&$0) }
        #expect(h.log == ["swipe recognized"])
        #expect(h.events.first?.direction == .right)
    }

    @Test(arguments: [PanSwipeRule.panRequiresSwipe, .swipeRequiredByPan], [false, true])
    func withTheRuleASlowDragIsAPan(rule: PanSwipeRule, swipeFirst: Bool) throws {
        let h = run(try panAndSwipe(rule, swipeFirst: swipeFirst)) { slowDrag(&$0) }
        #expect(h.log.first == "pan began")
        #expect(h.log.last == "pan ended")
        #expect(!h.log.contains("swipe recognized"))
        // The pan waited for the swipe; its began says since when, and counts from itself.
        #expect(h.events.first?.delayedFrom != nil)
        #expect(h.events.first?.translationX == 0 && h.events.first?.translationY == 0)
        #expect(h.traceLog.contains { $0.hasPrefix("[root/swipe] possible -> failed (") })
    }

    // MARK: 3. pinch and rotation

    /// Two fingers turning 0.5 rad clockwise while their span grows by 15 px.
    func twist(_ b: inout FrameBuilder) {
        b.down(1, x: 450, y: 300, at: 0)
        b.down(2, x: 550, y: 300, at: 0)
        for step in 1...10 {
            let angle = 0.05 * Double(step)
            let half = 50 + 1.5 * Double(step)
            let t = Int64(step) * 20 * ms
            b.move(1, x: 500 - half * cosine(angle), y: 300 - half * sine(angle), at: t)
            b.move(2, x: 500 + half * cosine(angle), y: 300 + half * sine(angle), at: t)
        }
        b.up(1, at: 220 * ms)
        b.up(2, at: 220 * ms)
    }

    @Test func pinchAndRotationRunTogetherWhenSimultaneous() throws {
        var m = ModelBuilder()
        m.gesture("pinch", .pinch)
        m.gesture("rotate", .rotation)
        m.simultaneous("rotate", with: "pinch")
        let h = run(try m.build()) { twist(&$0) }
        #expect(h.log.contains("rotate began") && h.log.contains("pinch began"))
        #expect(h.log.last == "pinch ended" || h.log.last == "rotate ended")
        let rotation = try #require(h.events(of: "rotate").last(where: { $0.state == .changed }))
        #expect(rotation.rotation > 0.3)  // clockwise on a y-down screen is positive
        let scale = try #require(h.events(of: "pinch").last(where: { $0.state == .changed }))
        #expect(scale.scale > 1)
    }

    @Test func withoutSimultaneityOnlyTheFirstToBeginRuns() throws {
        var m = ModelBuilder()
        m.gesture("pinch", .pinch)
        m.gesture("rotate", .rotation)
        let h = run(try m.build()) { twist(&$0) }
        #expect(h.log.first == "rotate began")
        #expect(h.events(of: "pinch").isEmpty)
        #expect(h.traceLog.contains("[root/pinch] possible -> failed (prevented by rotate)"))
    }

    // MARK: 4. long press exclusivity

    @Test func aLongPressPreventsATapAndAPan() throws {
        var m = ModelBuilder()
        m.gesture("press", .longPress)
        m.gesture("tap", .tap)
        m.gesture("pan", .pan)
        let h = run(try m.build()) { b in
            b.down(1, x: 300, y: 300, at: 0)
            b.hold(at: 600 * ms)
            b.drag(1, toX: 400, toY: 300, from: 600 * ms, duration: 100 * ms, steps: 5)
            b.up(1, at: 800 * ms)
        }
        #expect(h.log.first == "press began")
        #expect(h.events.first?.time == 500 * ms)
        #expect(h.log.last == "press ended")
        #expect(!h.log.contains { $0.hasPrefix("tap") || $0.hasPrefix("pan") })
    }

    @Test func aLongPressRunsWithAPanOnlyWhenAllowed() throws {
        var m = ModelBuilder()
        m.gesture("press", .longPress)
        m.gesture("pan", .pan)
        m.simultaneous("pan", with: "press")
        let h = run(try m.build()) { b in
            b.down(1, x: 300, y: 300, at: 0)
            b.hold(at: 600 * ms)
            b.drag(1, toX: 400, toY: 300, from: 600 * ms, duration: 100 * ms, steps: 5)
            b.up(1, at: 800 * ms)
        }
        #expect(h.log.contains("press began") && h.log.contains("pan began"))
    }

    @Test func aRunningPanPreventsALaterLongPress() throws {
        var m = ModelBuilder()
        m.gesture("press", .longPress) { $0.longPress.allowableMovement = .millimeters(50) }
        m.gesture("pan", .pan)
        let h = run(try m.build()) { b in
            b.down(1, x: 300, y: 300, at: 0)
            b.drag(1, toX: 330, toY: 300, from: 0, duration: 100 * ms, steps: 5)
            b.hold(at: 700 * ms)
            b.up(1, at: 800 * ms)
        }
        #expect(h.log.first == "pan began")
        #expect(!h.log.contains { $0.hasPrefix("press") })
    }

    // MARK: edge pan versus pan

    func edgeAndPan() throws -> GestureModel {
        var m = ModelBuilder()
        m.gesture("pan", .pan)
        m.gesture("edge", .edgePan) { $0.edgePan.edges = [.left] }
        return try m.build()
    }

    @Test func fromTheEdgeTheEdgePanWins() throws {
        let h = run(try edgeAndPan()) { b in
            b.down(1, x: 10, y: 300, at: 0)  // 2.5 mm from the left edge
            b.drag(1, toX: 200, toY: 300, from: 0, duration: 200 * ms, steps: 10)
            b.up(1, at: 210 * ms)
        }
        #expect(h.log.first == "edge began")
        #expect(h.events.first?.edge == .left)
        #expect(!h.log.contains { $0.hasPrefix("pan") })
    }

    @Test func awayFromTheEdgeThePanRuns() throws {
        let h = run(try edgeAndPan()) { b in
            b.down(1, x: 21, y: 300, at: 0)  // 5.25 mm from the edge
            b.drag(1, toX: 200, toY: 300, from: 0, duration: 200 * ms, steps: 10)
            b.up(1, at: 210 * ms)
        }
        #expect(h.log.first == "pan began")
        #expect(h.traceLog.contains("[root/edge] possible -> failed (first touch not at an edge)"))
    }
}

func cosine(_ x: Double) -> Double { series(x, cos: true) }
func sine(_ x: Double) -> Double { series(x, cos: false) }

/// Taylor series, good to 1e-12 for |x| < 1: the tests need no libm.
private func series(_ x: Double, cos: Bool) -> Double {
    var term = cos ? 1.0 : x
    var sum = term
    var n = cos ? 0.0 : 1.0
    for _ in 0..<12 {
        term *= -x * x / ((n + 1) * (n + 2))
        n += 2
        sum += term
    }
    return sum
}
