import GestureCore
import TestSupport
import Testing

/// The health stage per rule, on synthetic streams, each threshold from both sides. The
/// panel: 1000 x 600 px at 0.25 mm per px (4 px = 1 mm).
@Suite struct TouchHealthTests {
    func run(
        _ settings: TouchHealthSettings = TouchHealthSettings(), until end: Microseconds? = nil,
        _ build: (inout FrameBuilder) -> Void
    ) -> HealthRun {
        var b = FrameBuilder()
        build(&b)
        let h = HealthRun(settings, panel: b)
        h.run(b.frames, until: end)
        #expect(h.violations.isEmpty)
        return h
    }

    // MARK: defaults

    @Test func theDefaultsPassTapsAndDragsUnchanged() {
        let h = run { b in
            b.tap(1, x: 100, y: 100, at: 0, duration: 30 * ms)
            b.down(2, x: 500, y: 300, at: 100 * ms)
            b.drag(2, toX: 700, toY: 300, from: 100 * ms, duration: 100 * ms, steps: 2)
            b.up(2, at: 250 * ms)
        }
        #expect(h.log == ["0 1 began", "30 1 ended", "100 2 began", "150 2 moved", "200 2 moved", "250 2 ended"])
        #expect(h.filtered.isEmpty)
        #expect(h.stage.counts.contacts == 2)
        #expect(h.stage.nextDeadline == nil)
    }

    // MARK: masks

    @Test func aContactInAMaskNeverGoesOnAndOneBesideItDoes() {
        var s = TouchHealthSettings()
        s.masks = [Rect(x: 0, y: 0, width: 100, height: 600)]
        let h = run(s) { b in
            b.down(1, x: 99, y: 300, at: 0)
            b.drag(1, toX: 500, toY: 300, from: 0, duration: 100 * ms, steps: 4)
            b.up(1, at: 120 * ms)
            b.tap(2, x: 100, y: 300, at: 200 * ms)
        }
        #expect(h.log == ["200 2 began", "280 2 ended"])
        #expect(h.filteredRules == [.mask])
        #expect(h.filtered.first?.wasShown == false)
        #expect(h.stage.counts[.mask] == 1)
    }

    // MARK: ghosts

    func ghosts(hold: Bool) -> TouchHealthSettings {
        var s = TouchHealthSettings()
        s.minContact = 60 * ms
        s.holdNewContacts = hold
        return s
    }

    @Test func aHeldGhostIsNeverShownAndAContactOfMinContactIsShownLate() {
        let h = run(ghosts(hold: true)) { b in
            b.tap(1, x: 100, y: 100, at: 0, duration: 59 * ms)
            b.tap(2, x: 300, y: 100, at: 100 * ms, duration: 60 * ms)
            b.tap(3, x: 500, y: 100, at: 300 * ms, duration: 100 * ms)
        }
        #expect(h.log == ["160 2 began", "160 2 ended", "360 3 began", "400 3 ended"])
        #expect(h.filteredRules == [.ghost])
        #expect(h.stage.counts.held == 3)
    }

    @Test func aHeldContactThatMovesIsShownAtOnceAndOneWithinTheStillRadiusWaits() {
        let h = run(ghosts(hold: true)) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 106, y: 100, at: 10 * ms)  // 1.5 mm: still
            b.move(1, x: 107, y: 100, at: 20 * ms)  // 1.75 mm: moving
            b.up(1, at: 30 * ms)
            b.down(2, x: 300, y: 100, at: 100 * ms)
            b.move(2, x: 306, y: 100, at: 110 * ms)
            b.up(2, at: 150 * ms)
        }
        #expect(h.log == ["20 1 began", "30 1 ended"])
        #expect(h.filteredRules == [.ghost])
    }

    @Test func withoutHoldAGhostIsShownThenCancelled() {
        let h = run(ghosts(hold: false)) { b in
            b.tap(1, x: 100, y: 100, at: 0, duration: 59 * ms)
            b.tap(2, x: 300, y: 100, at: 100 * ms, duration: 60 * ms)
        }
        #expect(h.log == ["0 1 began", "59 1 cancelled", "100 2 began", "160 2 ended"])
        #expect(h.filtered.map(\.wasShown) == [true])
    }

    @Test func aGhostThatBeginsAndEndsInOneFrameLeavesNothing() {
        // As the normalizer reports a contact that went down and up between two reports.
        let panel = FrameBuilder()
        let down = Contact(id: 1, slot: 0, phase: .began, x: 1000, y: 1000, normalizedX: 0.1, normalizedY: 0.1)
        var up = down
        up.phase = .ended
        let h = HealthRun(ghosts(hold: false), panel: panel)
        h.run([TouchFrame(device: panel.device, time: 0, contacts: [down, up])])
        #expect(h.log.isEmpty)
        #expect(h.violations.isEmpty)
        #expect(h.filtered.map(\.wasShown) == [false])
    }

    // MARK: bursts

    func farApart() -> TouchHealthSettings {
        var s = TouchHealthSettings()
        s.farApart = .millimeters(150)
        return s
    }

    @Test func twoStillTapsFarApartWithinTheWindowAreBothNoise() {
        // 151 mm apart (604 px), the second 20 ms after the first.
        let h = run(farApart()) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 704, y: 100, at: 20 * ms)
            b.up(1, at: 50 * ms)
            b.up(2, at: 60 * ms)
        }
        #expect(h.log == ["0 1 began", "20 1 cancelled"])
        #expect(h.filteredRules == [.farApart, .farApart])
    }

    @Test func tapsNearerThanFarApartOrLaterThanTheWindowPass() {
        let h = run(farApart()) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 696, y: 100, at: 20 * ms)  // 149 mm
            b.up(1, at: 50 * ms)
            b.up(2, at: 60 * ms)
            b.down(3, x: 100, y: 100, at: 200 * ms)
            b.down(4, x: 704, y: 100, at: 231 * ms)  // 151 mm, 31 ms later
            b.up(3, at: 300 * ms)
            b.up(4, at: 300 * ms)
        }
        #expect(h.filtered.isEmpty)
        #expect(h.log.count == 8)
    }

    @Test func aTapNearAnotherIsNotFarApartEvenWithAThirdFarAway() {
        let h = run(farApart()) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 120, y: 100, at: 0)
            b.down(3, x: 900, y: 100, at: 10 * ms)
        }
        #expect(h.log == ["0 1 began", "0 2 began"])
        #expect(h.filtered.map(\.id) == [3])
    }

    @Test func aNewContactAlignedWithOneDownIsNoiseAndOneJustBesideIsNot() {
        var s = TouchHealthSettings()
        s.aligned = .millimeters(0.5)
        let h = run(s) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 102, y: 400, at: 10 * ms)  // 0.5 mm along x
            b.up(2, at: 15 * ms)
            b.down(3, x: 103, y: 500, at: 20 * ms)  // 0.75 mm
            b.up(1, at: 100 * ms)
            b.up(3, at: 100 * ms)
        }
        #expect(h.log == ["0 1 began", "20 3 began", "100 1 ended", "100 3 ended"])
        #expect(h.filtered.map(\.id) == [2])
        #expect(h.filteredRules == [.aligned])
    }

    // MARK: spots

    func spots() -> TouchHealthSettings {
        var s = TouchHealthSettings()
        var spot = TouchHealthSettings.Spot(count: 3)
        spot.release = 10_000 * ms
        s.spot = spot
        return s
    }

    @Test func aSpotThatRecursIsMaskedThenReleasedWhenQuiet() {
        let h = run(spots(), until: 30_000 * ms) { b in
            for i in 0..<3 { b.tap(Int32(i + 1), x: 500, y: 300, at: Int64(i) * 1_000 * ms) }
            b.tap(4, x: 502, y: 300, at: 3_000 * ms)  // 0.5 mm away: on the spot
            b.tap(5, x: 520, y: 300, at: 3_500 * ms)  // 5 mm away: not
            b.tap(6, x: 500, y: 300, at: 20_000 * ms)  // quiet for 10 s since 4: released
        }
        #expect(h.filtered.map(\.id) == [4])
        #expect(h.filteredRules == [.spot])
        #expect(h.log.filter { $0.hasSuffix("began") }.count == 5)
        let kinds = h.notices.map(\.kind)
        #expect(kinds == [.spotMasked(x: 500, y: 300), .spotReleased(x: 500, y: 300)])
        #expect(h.notices.last?.time == 13_000 * ms)
        #expect(h.stage.maskedSpots == 0)
    }

    @Test func landingsSpreadOverMoreThanTheWindowMaskNothing() {
        let h = run(spots()) { b in
            for i in 0..<4 { b.tap(Int32(i + 1), x: 500, y: 300, at: Int64(i) * 2_100 * ms) }
        }
        #expect(h.filtered.isEmpty)
        #expect(h.notices.isEmpty)
    }

    // MARK: jumps

    @Test func aJumpFurtherThanTheLimitSplitsTheContactAndOneShorterDoesNot() {
        var s = TouchHealthSettings()
        s.jump = .millimeters(20)
        let h = run(s) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 176, y: 100, at: 10 * ms)  // 19 mm
            b.move(1, x: 260, y: 100, at: 20 * ms)  // 21 mm
            b.move(1, x: 264, y: 100, at: 30 * ms)
            b.up(1, at: 40 * ms)
        }
        // The jump is held a frame; its next report stayed there: split.
        #expect(h.log == ["0 1 began", "10 1 moved", "30 1 cancelled", "30 10000 began", "30 10000 moved", "40 10000 ended"])
        #expect(h.filteredRules == [.jump])
        #expect(h.stage.counts[.jump] == 1)
    }

    @Test func aLongStepAfterAGapLongerThanTheJumpGapIsAMove() {
        var s = TouchHealthSettings()
        s.jump = .millimeters(20)
        let h = run(s) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 200, y: 100, at: 26 * ms)  // 25 mm, 26 ms after the last frame
            b.move(1, x: 300, y: 100, at: 51 * ms)  // 25 mm, 25 ms after: held a frame
            b.up(1, at: 60 * ms)  // where it jumped: split
        }
        #expect(h.log == ["0 1 began", "26 1 moved", "60 1 cancelled", "60 10000 began", "60 10000 ended"])
    }

    @Test func aLiftReportedFarAwayEndsTheContactWhereItWas() {
        var s = TouchHealthSettings()
        s.jump = .millimeters(20)
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.move(1, x: 900, y: 100, at: 10 * ms)
        b.up(1, at: 10 * ms)
        let h = HealthRun(s, panel: b)
        h.run(b.frames)
        #expect(h.log == ["0 1 began", "10 1 ended"])
        #expect(h.stage.output.contacts.first?.x == 100)  // where it was, in screen px
    }

    // MARK: stuck contacts

    @Test func aContactStillForStuckAfterIsCancelledAndIgnoredUntilItLifts() {
        let h = run(until: 70_000 * ms) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 105, y: 100, at: 1_000 * ms)  // 1.25 mm: still
            b.hold(at: 59_999 * ms)
            b.move(1, x: 300, y: 100, at: 61_000 * ms)
            b.up(1, at: 62_000 * ms)
        }
        #expect(h.log == ["0 1 began", "1000 1 moved", "60000 1 cancelled"])
        #expect(h.filteredRules == [.stuck])
        #expect(h.stage.watchedContacts.down == 0)
    }

    @Test func aContactThatMovesBeyondTheStillRadiusStartsItsStillTimeAgain() {
        let h = run(until: 100_000 * ms) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 107, y: 100, at: 40_000 * ms)  // 1.75 mm
            b.hold(at: 99_000 * ms)
            b.up(1, at: 99_999 * ms)
        }
        #expect(h.filtered.isEmpty)
        #expect(h.log.last == "99999 1 ended")
    }

    @Test func stuckAfterZeroTurnsTheReleaseOff() {
        var s = TouchHealthSettings()
        s.stuckAfter = 0
        let h = run(s, until: 600_000 * ms) { b in b.down(1, x: 100, y: 100, at: 0) }
        #expect(h.filtered.isEmpty)
        #expect(h.stage.nextDeadline == nil)
    }

    // MARK: the panel's state

    @Test func filteredContactsAboveTheRateMakeThePanelNoisyUntilQuiet() {
        var s = TouchHealthSettings()
        s.masks = [Rect(x: 0, y: 0, width: 100, height: 600)]
        var noisy = TouchHealthSettings.Noisy(perMinute: 3)
        noisy.quiet = 10_000 * ms
        s.noisy = noisy
        let h = run(s, until: 200_000 * ms) { b in
            // Three within a minute: not above 3.
            for i in 0..<3 { b.tap(Int32(i + 1), x: 50, y: 300, at: Int64(i) * 1_000 * ms) }
            // The fourth at 40 s: four within a minute.
            b.tap(4, x: 50, y: 300, at: 40_000 * ms)
        }
        // Over until the first (at 0) leaves the minute, ok 10 s of quiet after that.
        #expect(h.stateChanges == ["40000 ok->noisy", "70000 noisy->ok"])
        guard case .state(_, _, let reason) = h.notices.first?.kind else {
            Issue.record("no state change")
            return
        }
        #expect(reason == .filtered(count: 4, perMinute: 3))
        #expect(reason.description == "4 contacts filtered within a minute (more than 3)")
    }

    @Test func threeFilteredAMinuteAreNotNoisy() {
        var s = TouchHealthSettings()
        s.masks = [Rect(x: 0, y: 0, width: 100, height: 600)]
        s.noisy = TouchHealthSettings.Noisy(perMinute: 3)
        let h = run(s) { b in
            for i in 0..<4 { b.tap(Int32(i + 1), x: 50, y: 300, at: Int64(i) * 20_001 * ms) }
        }
        #expect(h.stateChanges.isEmpty)
        #expect(h.stage.counts[.mask] == 4)
    }

    @Test func noFrameForSilentAfterMakesThePanelSilentUntilTheNextFrame() {
        var s = TouchHealthSettings()
        s.silentAfter = 5_000 * ms
        let h = run(s) { b in
            b.tap(1, x: 100, y: 100, at: 0)
            b.tap(2, x: 100, y: 100, at: 5_079 * ms)  // 4.999 s after the last frame
            b.tap(3, x: 100, y: 100, at: 11_000 * ms)
        }
        #expect(h.stateChanges == ["10159 ok->silent", "11000 silent->ok"])
        guard case .state(_, _, let reason) = h.notices.first?.kind else {
            Issue.record("no state change")
            return
        }
        #expect(reason.description == "no frame for 5s")
    }

    // MARK: invariants

    @Test func splitsAndTheDevicesOwnIdsNeverCollide() {
        var s = TouchHealthSettings()
        s.jump = .millimeters(5)
        let h = run(s) { b in
            for i in 0..<5 {
                let id = Int32(i + 1)
                let t = Int64(i) * 100 * ms
                // Two jumps that stay, each split once its next report confirms it.
                b.down(id, x: 100, y: 100, at: t)
                b.move(id, x: 200, y: 100, at: t + 10 * ms)
                b.move(id, x: 204, y: 100, at: t + 20 * ms)
                b.move(id, x: 304, y: 100, at: t + 30 * ms)
                b.move(id, x: 308, y: 100, at: t + 40 * ms)
                b.up(id, at: t + 50 * ms)
            }
        }
        #expect(h.shown.count == 15)
        #expect(h.open.isEmpty)
        #expect(h.stage.counts[.jump] == 10)
    }
}
