import GestureCore
import TestSupport
import Testing

/// The bezel hold (`edge_hold`) and the jump held a frame (`jump`), each threshold from
/// both sides. The panel: 1000 x 600 px at 0.25 mm per px (4 px = 1 mm), 10 values per px,
/// so its last column (value 9999) lands at x = 999.9.
@Suite struct BezelAndOutlierTests {
    func run(_ settings: TouchHealthSettings, until end: Microseconds? = nil, _ build: (inout FrameBuilder) -> Void) -> HealthRun {
        TouchHealthTests().run(settings, until: end, build)
    }

    static let bezel: TouchHealthSettings = {
        var s = TouchHealthSettings()
        s.edgeHold = .millimeters(0.5)
        return s
    }()

    static let jump: TouchHealthSettings = {
        var s = TouchHealthSettings()
        s.jump = .millimeters(20)
        return s
    }()

    // MARK: bezel touches

    @Test func aStillTouchOnTheBorderIsHeldAndDroppedWhenItLifts() {
        let h = run(Self.bezel) { b in
            b.tap(1, x: 0, y: 300, at: 0, duration: 150 * ms)
            b.tap(2, x: 999.9, y: 300, at: 200 * ms, duration: 150 * ms)
            b.tap(3, x: 500, y: 599.9, at: 400 * ms, duration: 150 * ms)
        }
        #expect(h.log.isEmpty)
        #expect(h.filteredRules == [.edge, .edge, .edge])
        #expect(h.filtered.allSatisfy { !$0.wasShown })
        #expect(h.stage.counts[.edge] == 3 && h.stage.counts.held == 3)
        // No timer: a bezel touch waits for its movement, not for time.
        #expect(h.stage.nextDeadline == nil)
    }

    @Test func withinEdgeHoldOfTheBorderIsHeldAndJustBeyondItIsNot() {
        // 0.5 mm is 2 px: 1.9 and 2.1 px from the first column (x = 0), from the last
        // (x = 999.9) and from the first row.
        let h = run(Self.bezel) { b in
            b.tap(1, x: 1.9, y: 300, at: 0)
            b.tap(2, x: 2.1, y: 300, at: 200 * ms)
            b.tap(3, x: 998, y: 300, at: 400 * ms)
            b.tap(4, x: 997.8, y: 300, at: 600 * ms)
            b.tap(5, x: 500, y: 1.9, at: 800 * ms)
            b.tap(6, x: 500, y: 2.1, at: 1_000 * ms)
        }
        #expect(h.log == ["200 2 began", "280 2 ended", "600 4 began", "680 4 ended", "1000 6 began", "1080 6 ended"])
        #expect(h.filteredRules == [.edge, .edge, .edge])
    }

    @Test func aBorderTouchThatMovesIsShownFromWhereItLanded() throws {
        let h = run(Self.bezel) { b in
            b.down(1, x: 999.9, y: 300, at: 0)
            b.move(1, x: 994, y: 300, at: 100 * ms)  // 1.475 mm: still within still_radius
            b.move(1, x: 993.8, y: 300, at: 110 * ms)  // 1.525 mm: moved
            b.move(1, x: 900, y: 300, at: 120 * ms)
            b.up(1, at: 130 * ms)
        }
        #expect(h.log == ["110 1 began", "110 1 moved", "120 1 moved", "130 1 ended"])
        let shown = try #require(h.outputs.first)
        #expect(shown.contacts.map { ($0.x * 10).rounded() / 10 } == [999.9, 993.8])
        #expect(shown.contacts.first?.held == 110 * ms)
        #expect(h.filtered.isEmpty)
    }

    @Test func offTheBorderIsUnchanged() {
        let h = run(Self.bezel) { b in
            b.tap(1, x: 500, y: 300, at: 0)
        }
        #expect(h.log == ["0 1 began", "80 1 ended"])
    }

    /// An edge pan from the bezel: the finger rests on the last column, then swipes in.
    func bezelSwipe(_ settings: TouchHealthSettings) throws -> PipelineHarness {
        var m = ModelBuilder()
        m.gesture("edge", .edgePan) { $0.edgePan.edges = .right }
        m.gesture("tap", .tap)
        var b = FrameBuilder()
        b.down(1, x: 999.9, y: 300, at: 0)
        b.hold(at: 200 * ms)
        b.drag(1, toX: 839.9, toY: 300, from: 200 * ms, duration: 100 * ms, steps: 10)
        b.up(1, at: 310 * ms)
        b.tap(2, x: 999.9, y: 100, at: 500 * ms, duration: 150 * ms)
        return HealthInPipelineTests().delivered(b, through: try m.build(), settings)
    }

    @Test func anEdgeSwipeFromTheBezelStillBeginsAndABezelTapIsNotATap() throws {
        let held = try bezelSwipe(Self.bezel)
        #expect(held.events(of: "edge").first?.state == .began)
        #expect(held.events(of: "edge").first?.edge == .right)
        #expect(held.events(of: "tap").isEmpty)
        // The application never saw the bezel tap.
        #expect(!held.touchLog.contains { $0.hasPrefix("2 ") })

        let plain = try bezelSwipe(TouchHealthSettings())
        #expect(plain.events(of: "edge").first?.edge == .right)
        #expect(plain.log.contains("tap recognized"))
    }

    @Test func aMaskOnTheBorderLosesTheSwipeWhereTheHoldKeepsIt() throws {
        var s = TouchHealthSettings()
        s.masks = [Rect(x: 998, y: 0, width: 2, height: 600)]
        let masked = try bezelSwipe(s)
        #expect(masked.events(of: "edge").isEmpty)
    }

    // MARK: one bad report

    @Test func aOneFrameOutlierIsDroppedAndTheStrokeGoesOnWhole() throws {
        let h = run(Self.jump) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 104, y: 100, at: 10 * ms)
            b.move(1, x: 108, y: 100, at: 20 * ms)
            b.move(1, x: 900, y: 100, at: 30 * ms)  // 198 mm off the path
            b.move(1, x: 112, y: 100, at: 40 * ms)  // back
            b.move(1, x: 116, y: 100, at: 50 * ms)
            b.up(1, at: 60 * ms)
        }
        #expect(h.log == ["0 1 began", "10 1 moved", "20 1 moved", "40 1 moved", "50 1 moved", "60 1 ended"])
        #expect(h.filteredRules == [.outlier])
        let dropped = try #require(h.filtered.first)
        #expect(dropped.x == 900 && dropped.time == 40 * ms && !dropped.wasShown && dropped.id == 1)
        #expect(h.stage.counts[.outlier] == 1 && h.stage.counts[.jump] == 0)
    }

    @Test func backWithinJumpIsAnOutlierAndJustBeyondItASplit() {
        // From x = 108 the report jumps to 900; the next one lands 20 mm (80 px) or 21 mm
        // (84 px) from 108.
        func returning(to x: Double) -> HealthRun {
            run(Self.jump) { b in
                b.down(1, x: 100, y: 100, at: 0)
                b.move(1, x: 108, y: 100, at: 10 * ms)
                b.move(1, x: 900, y: 100, at: 20 * ms)
                b.move(1, x: x, y: 100, at: 30 * ms)
                b.up(1, at: 40 * ms)
            }
        }
        let back = returning(to: 188)
        #expect(back.log == ["0 1 began", "10 1 moved", "30 1 moved", "40 1 ended"])
        #expect(back.filteredRules == [.outlier])
        let away = returning(to: 192)
        #expect(away.log == ["0 1 began", "10 1 moved", "30 1 cancelled", "30 10000 began", "30 10000 moved", "40 10000 ended"])
        #expect(away.filteredRules == [.jump])
    }

    @Test func aJumpThatStaysIsSplitFromTheJumpedReport() throws {
        let h = run(Self.jump) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 108, y: 100, at: 10 * ms)
            b.move(1, x: 900, y: 100, at: 20 * ms)
            b.move(1, x: 904, y: 100, at: 30 * ms)
            b.up(1, at: 40 * ms)
        }
        #expect(h.log == ["0 1 began", "10 1 moved", "30 1 cancelled", "30 10000 began", "30 10000 moved", "40 10000 ended"])
        let split = try #require(h.outputs.first { $0.time == 30 * ms })
        #expect(split.contacts.map(\.x) == [108, 900, 904])
        #expect(h.filteredRules == [.jump])
    }

    @Test func aJumpWithNoReportAfterItIsSplitAtTheJumpGap() {
        // A finger that landed there and rests: the panel sends nothing more until the lift.
        let h = run(Self.jump, until: 300 * ms) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 108, y: 100, at: 10 * ms)
            b.move(1, x: 900, y: 100, at: 20 * ms)
            b.up(1, at: 200 * ms)
        }
        #expect(h.log == ["0 1 began", "10 1 moved", "45 1 cancelled", "45 10000 began", "200 10000 ended"])
    }

    @Test func theJumpHoldsItsFrameUntilTheJumpGapAtMost() {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.move(1, x: 108, y: 100, at: 10 * ms)
        b.move(1, x: 900, y: 100, at: 20 * ms)
        let h = HealthRun(Self.jump, panel: b)
        h.run(b.frames)
        #expect(h.stage.nextDeadline == 20 * ms + TouchHealth.jumpGap)
        #expect(h.log == ["0 1 began", "10 1 moved"])
    }

    @Test func aPanThroughAnOutlierIsOnePan() throws {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 300, at: 0)
        for k in 1...5 { b.move(1, x: 100 + Double(k) * 20, y: 300, at: Int64(k) * 10 * ms) }
        b.move(1, x: 900, y: 300, at: 60 * ms)  // 195 mm in 10 ms, for one frame
        for k in 7...9 { b.move(1, x: 100 + Double(k - 1) * 20, y: 300, at: Int64(k) * 10 * ms) }
        b.up(1, at: 100 * ms)
        let h = HealthInPipelineTests().delivered(b, through: try single(.pan), Self.jump)
        #expect(h.log.first == "g began" && h.log.last == "g ended")
        #expect(h.log.filter { $0 == "g began" }.count == 1)
        #expect(h.events.allSatisfy { $0.x < 300 })
        // The application got one touch, never one split off.
        #expect(Set(h.touches.map(\.id)) == [1])
    }
}
