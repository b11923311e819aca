import GestureCore
import TestSupport
import Testing

/// The health stage as one of the pipeline's frame stages: what the engine and the
/// application behind it get of a panel's faults.
@Suite struct HealthInPipelineTests {
    /// A contact resting motionless, then a tap elsewhere, with the given settings.
    func tapBesideAResting(_ settings: TouchHealthSettings) throws -> PipelineHarness {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.tap(2, x: 600, y: 300, at: 61_000 * ms)
        let h = PipelineHarness(model: try single(.tap))
        h.attach(device: b.device, x: b.x, y: b.y, health: settings)
        h.engine.touchDeliveryEnabled = true
        h.run(b.frames)
        h.advance(to: 62_000 * ms)
        return h
    }

    /// `b`'s frames through `model` behind a health stage with `settings`, touch delivery on,
    /// every deadline fired.
    func delivered(_ b: FrameBuilder, through model: GestureModel, _ settings: TouchHealthSettings) -> PipelineHarness {
        let h = PipelineHarness(model: model)
        h.attach(device: b.device, x: b.x, y: b.y, health: settings)
        h.engine.touchDeliveryEnabled = true
        h.run(b.frames)
        h.settle()
        return h
    }

    @Test func aStuckContactReleasedByDefaultLetsATapThrough() throws {
        let h = try tapBesideAResting(TouchHealthSettings())
        #expect(h.log == ["g recognized"])
        // The application got the resting contact's cancel when it was released.
        #expect(h.touchLog.prefix(2) == ["1 began", "1 cancelled"])
    }

    @Test func withoutTheReleaseTheRestingContactBlocksTheTap() throws {
        var s = TouchHealthSettings()
        s.stuckAfter = 0
        let h = try tapBesideAResting(s)
        #expect(h.log.isEmpty)
    }

    @Test func aGhostNeverReachesTheEngineNorTheApplication() throws {
        var s = TouchHealthSettings()
        s.minContact = 60 * ms
        var b = FrameBuilder()
        b.tap(1, x: 100, y: 100, at: 0, duration: 40 * ms)
        b.tap(2, x: 300, y: 100, at: 500 * ms, duration: 100 * ms)
        let h = delivered(b, through: try single(.tap), s)
        #expect(h.log == ["g recognized"])
        #expect(!h.touchLog.contains { $0.hasPrefix("1 ") })
        // Shown after the hold: the application waited that long since it went down.
        #expect(h.touchLog.first == "2 began +60ms")
    }

    /// The hold on new contacts is part of what the application waits, as a gesture's
    /// `delays_touches_began` is, and the two add up: a still contact shown to the gestures
    /// after 60 ms, held on by a tap that delays it until the contact moves at 100 ms,
    /// reaches the application 100 ms after it went down, not 40.
    @Test func theHealthHoldCountsInTheApplicationsDelay() throws {
        var s = TouchHealthSettings()
        s.minContact = 60 * ms
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.move(1, x: 100.5, y: 100, at: 80 * ms)  // still
        b.move(1, x: 140, y: 100, at: 100 * ms)  // 10 mm: the tap fails
        b.up(1, at: 200 * ms)
        let h = delivered(b, through: try single(.tap) { $0.delivery.delaysTouchesBegan = true }, s)
        #expect(h.touchLog.filter { !$0.hasSuffix("moved") } == ["1 began +100ms", "1 ended"])
    }

    @Test func aJumpIsACancelAndANewContact() throws {
        var s = TouchHealthSettings()
        s.jump = .millimeters(20)
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.move(1, x: 110, y: 100, at: 10 * ms)
        b.move(1, x: 900, y: 100, at: 20 * ms)
        b.up(1, at: 200 * ms)
        let h = delivered(b, through: try single(.tap), s)
        let split = Int32.max  // split ids count down from the top: the normalizers' never reach it
        #expect(h.touchLog.filter { !$0.hasSuffix("moved") } == ["1 began", "1 cancelled", "\(split) began", "\(split) ended"])
    }

    /// A pan running on a contact that jumps ends cancelled with it (its touch was
    /// cancelled), and does not swallow the contact split off: that one is a new touch,
    /// which the application sees go down where the finger is once its next report confirmed
    /// the jump, move and lift, and
    /// which the cancelled pan never takes (it began before the pan was reset).
    @Test func aPanEndsAtAJumpAndLeavesTheSplitContactToTheApplication() throws {
        var s = TouchHealthSettings()
        s.jump = .millimeters(20)
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        for k in 1...5 { b.move(1, x: 100 + Double(k) * 20, y: 100, at: Int64(k) * 10 * ms) }
        b.move(1, x: 900, y: 100, at: 60 * ms)  // 195 mm in 10 ms
        b.move(1, x: 910, y: 100, at: 70 * ms)
        b.move(1, x: 920, y: 100, at: 80 * ms)
        b.up(1, at: 90 * ms)
        let h = delivered(b, through: try single(.pan), s)
        #expect(h.log.first == "g began")
        #expect(h.log.last == "g cancelled")
        #expect(h.log.filter { $0 == "g began" }.count == 1)
        // The jump is held a frame: its next report, still there, splits it at 70 ms.
        let cancelled = try #require(h.events.last)
        #expect(cancelled.time == 70 * ms)
        let split = Int32.max
        // The pan cancelled the application's touch when it began; the split contact is
        // the application's from where it landed to its lift.
        #expect(h.touchLog.filter { !$0.hasSuffix("moved") } == ["1 began", "1 cancelled", "\(split) began", "\(split) ended"])
        let began = try #require(h.touches.first { $0.id == split })
        // Shown where the finger is once the split is known (the gestures saw it begin at
        // 900, where the jumped report put it).
        #expect(began.x == 910, "\(began)")
        #expect(began.time == 70 * ms && began.delay == 0)
        #expect(h.touches.filter { $0.id == split && $0.kind == .moved }.count == 1)
        #expect(h.engine.snapshot().gestures[0].state == .possible)
    }
}
