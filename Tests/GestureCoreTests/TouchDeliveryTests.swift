import TestSupport
import Testing

@testable import GestureCore

/// Every rule of `TouchDelivery` over synthetic frames: what the application underneath
/// sees of each contact (`touchLog`: "id kind", "+N ms" when held back).
@Suite struct TouchDeliveryTests {
    /// Runs `build`'s frames with touch delivery on, then fires every remaining deadline.
    func deliver(_ model: GestureModel, _ build: (inout FrameBuilder) -> Void) -> PipelineHarness {
        var b = FrameBuilder()
        build(&b)
        let h = harness(model, builder: b)
        h.engine.touchDeliveryEnabled = true
        h.run(b.frames)
        h.settle()
        return h
    }

    /// A 200 x 200 px `button` at (400, 200) with `configure`'s gestures on it.
    func button(passthrough: Bool = true, _ configure: (inout ModelBuilder) -> Void = { _ in }) throws -> GestureModel {
        var m = ModelBuilder()
        m.view("button", frame: Rect(x: 400, y: 200, width: 200, height: 200), passthrough: passthrough)
        configure(&m)
        return try m.build()
    }

    // MARK: nothing to decide

    @Test func withoutGesturesTouchesPassAsTheyAre() throws {
        let h = deliver(try button()) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 110, y: 100, at: 10 * ms)
            b.hold(at: 20 * ms)  // stationary: nothing to tell
            b.up(1, at: 30 * ms)
        }
        #expect(h.touchLog == ["1 began", "1 moved", "1 ended"])
        #expect(h.touches.map(\.time) == [0, 10 * ms, 30 * ms])
        #expect(h.touches[1].x == 110 && h.touches[1].y == 100)
        #expect(h.engine.touchDeliveryCounts == TouchDeliveryCounts(passed: 1, held: 0, cancelled: 0))
    }

    @Test func aTouchOutsideEveryGesturesViewPasses() throws {
        let model = try button { $0.gesture("tap", .tap, on: "button") }
        let h = deliver(model) { b in b.tap(1, x: 100, y: 100, at: 0) }
        #expect(h.touchLog == ["1 began", "1 ended"])
        #expect(h.log.isEmpty)
    }

    @Test func deliveryIsOffUnlessEnabled() throws {
        let h = run(try button()) { b in b.tap(1, x: 100, y: 100, at: 0) }
        #expect(h.touches.isEmpty)
        #expect(!h.engine.touchDeliveryEnabled)
    }

    // MARK: cancels_touches

    @Test func aRecognizedTapCancelsItsTouchInsteadOfLiftingIt() throws {
        // UIKit's defaults: shown at once, the lift held (delays_touches_ended) and the tap
        // recognizing at that lift cancels it.
        let model = try button { $0.gesture("tap", .tap, on: "button") }
        let h = deliver(model) { b in b.tap(1, x: 500, y: 300, at: 0) }
        #expect(h.log == ["tap recognized"])
        #expect(h.touchLog == ["1 began", "1 cancelled"])
        #expect(h.touches[1].time == 80 * ms)
        #expect(h.engine.touchDeliveryCounts == TouchDeliveryCounts(passed: 1, held: 0, cancelled: 1))
    }

    @Test func anEdgePanCancelsWhatTheApplicationSawAndHidesTheRest() throws {
        var m = ModelBuilder()
        m.gesture("edge", .edgePan) { $0.edgePan.edges = [.left] }
        let h = deliver(try m.build()) { b in
            b.down(1, x: 2, y: 300, at: 0)
            b.drag(1, toX: 200, toY: 300, from: 0, duration: 200 * ms, steps: 10)
            b.up(1, at: 220 * ms)
        }
        #expect(h.log == ["edge began", "edge changed"] + Array(repeating: "edge changed", count: h.log.count - 3) + ["edge ended"])
        let began = try #require(h.events.first)
        // Moves until the pan began, then the cancel at that very moment, then nothing.
        #expect(h.touchLog.first == "1 began")
        #expect(h.touchLog.last == "1 cancelled")
        #expect(h.touchLog.dropFirst().dropLast().allSatisfy { $0 == "1 moved" })
        #expect(h.touches.last?.time == began.time)
    }

    @Test func withoutCancelsTouchesARunningPanLeavesTheTouchToTheApplication() throws {
        // The pan began before the lift, so no gesture that delays lifts was still deciding
        // when it came: the lift is delivered at once.
        var m = ModelBuilder()
        m.gesture("pan", .pan) { $0.delivery.cancelsTouches = false }
        let h = deliver(try m.build()) { b in
            b.down(1, x: 100, y: 300, at: 0)
            b.drag(1, toX: 300, toY: 300, from: 0, duration: 100 * ms, steps: 5)
            b.up(1, at: 120 * ms)
        }
        #expect(h.log.first == "pan began")
        #expect(h.touchLog == ["1 began"] + Array(repeating: "1 moved", count: 5) + ["1 ended"])
        #expect(h.touches.last?.delay == 0)
    }

    // MARK: delays_touches_began

    @Test func aHeldTouchOfARecognizedLongPressIsNeverShown() throws {
        let model = try button {
            $0.gesture("press", .longPress, on: "button") { $0.delivery.delaysTouchesBegan = true }
        }
        let h = deliver(model) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.hold(at: 600 * ms)
            b.up(1, at: 700 * ms)
        }
        #expect(h.log == ["press began", "press ended"])
        #expect(h.touchLog.isEmpty)
        #expect(h.engine.touchDeliveryCounts == TouchDeliveryCounts(passed: 0, held: 1, cancelled: 0))
    }

    @Test func aHeldTouchIsShownWhereItIsWhenItsGestureFails() throws {
        // The press fails on moving past 10 pt: the touch is shown then, at its position then,
        // with the delay since it went down; the rest flows.
        let model = try button {
            $0.gesture("press", .longPress, on: "button") { $0.delivery.delaysTouchesBegan = true }
        }
        let h = deliver(model) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.move(1, x: 505, y: 300, at: 50 * ms)
            b.move(1, x: 530, y: 300, at: 100 * ms)
            b.move(1, x: 540, y: 300, at: 150 * ms)
            b.up(1, at: 200 * ms)
        }
        #expect(h.log.isEmpty)
        #expect(h.touchLog == ["1 began +100ms", "1 moved", "1 ended"])
        #expect(h.touches[0].x == 530)
        #expect(h.engine.touchDeliveryCounts == TouchDeliveryCounts(passed: 1, held: 1, cancelled: 0))
    }

    @Test func aHeldTouchThatLiftedIsShownDownAndUpWhenItsGestureFails() throws {
        // A quick tap on a long press that delays began touches: the press fails at the lift,
        // and the application gets the whole tap then, began and ended together.
        let model = try button {
            $0.gesture("press", .longPress, on: "button") {
                $0.delivery.delaysTouchesBegan = true
                $0.delivery.delaysTouchesEnded = false
            }
        }
        let h = deliver(model) { b in b.tap(1, x: 500, y: 300, at: 0) }
        #expect(h.touchLog == ["1 began +80ms", "1 ended"])
        #expect(h.touches.map(\.time) == [80 * ms, 80 * ms])
    }

    @Test func threeFingerLongPressWithDelaysTouchesBeganShowsNoTouch() throws {
        var m = ModelBuilder()
        m.gesture("press3", .longPress) {
            $0.longPress.touches = 3
            $0.delivery.delaysTouchesBegan = true
        }
        let h = deliver(try m.build()) { b in
            b.down(1, x: 300, y: 300, at: 0)
            b.down(2, x: 400, y: 300, at: 0)
            b.down(3, x: 500, y: 300, at: 0)
            b.hold(at: 700 * ms)
            b.up(1, at: 800 * ms)
            b.up(2, at: 800 * ms)
            b.up(3, at: 800 * ms)
        }
        #expect(h.log == ["press3 began", "press3 ended"])
        #expect(h.touchLog.isEmpty)
    }

    // MARK: delays_touches_ended

    func doubleTap() throws -> GestureModel {
        try button { $0.gesture("double", .tap, on: "button") { $0.tap.taps = 2 } }
    }

    @Test func aLiftIsHeldWhileADoubleTapMayComeAndDeliveredWhenItFails() throws {
        let h = deliver(try doubleTap()) { b in b.tap(1, x: 500, y: 300, at: 0) }
        #expect(h.log.isEmpty)
        // The double tap fails when its interval (350 ms after the lift) has passed.
        #expect(h.touchLog == ["1 began", "1 ended +350ms"])
        #expect(h.touches[1].time == 430 * ms + 1)
    }

    @Test func aDoubleTapIsNeverSeenAsATap() throws {
        let h = deliver(try doubleTap()) { b in
            b.tap(1, x: 500, y: 300, at: 0)
            b.tap(2, x: 502, y: 300, at: 200 * ms)
        }
        #expect(h.log == ["double recognized"])
        // The first lift was held, then cancelled with the second touch at the recognition.
        #expect(h.touchLog == ["1 began", "2 began", "1 cancelled", "2 cancelled"])
        #expect(!h.touchLog.contains { $0.contains("ended") })
    }

    @Test func withoutDelaysTouchesEndedTheLiftGoesOutAtOnce() throws {
        let model = try button {
            $0.gesture("double", .tap, on: "button") {
                $0.tap.taps = 2
                $0.delivery.delaysTouchesEnded = false
            }
        }
        let h = deliver(model) { b in
            b.tap(1, x: 500, y: 300, at: 0)
            b.tap(2, x: 502, y: 300, at: 200 * ms)
        }
        // The first tap reached the application whole; the second is cancelled by the recognition.
        #expect(h.touchLog == ["1 began", "1 ended", "2 began", "2 cancelled"])
    }

    @Test func aRecognitionWithoutCancelsTouchesStillCancelsAHeldLift() throws {
        // UIKit: a gesture that delays ended touches and then recognizes has them cancelled.
        let model = try button { $0.gesture("tap", .tap, on: "button") { $0.delivery.cancelsTouches = false } }
        let h = deliver(model) { b in b.tap(1, x: 500, y: 300, at: 0) }
        #expect(h.touchLog == ["1 began", "1 cancelled"])
    }

    @Test func neitherCancellingNorDelayingLeavesTheTouchWhole() throws {
        let model = try button {
            $0.gesture("tap", .tap, on: "button") {
                $0.delivery.cancelsTouches = false
                $0.delivery.delaysTouchesEnded = false
            }
        }
        let h = deliver(model) { b in b.tap(1, x: 500, y: 300, at: 0) }
        #expect(h.log == ["tap recognized"])
        #expect(h.touchLog == ["1 began", "1 ended"])
    }

    // MARK: passthrough = false

    @Test func aTouchInAGestureOnlyViewNeverReachesTheApplication() throws {
        // With or without gestures, and with its moves and lift.
        let strip = try button(passthrough: false)
        let h = deliver(strip) { b in
            b.down(1, x: 500, y: 300, at: 0)
            b.move(1, x: 100, y: 100, at: 50 * ms)  // leaving the view changes nothing: hit-tested once
            b.up(1, at: 100 * ms)
            b.tap(2, x: 100, y: 100, at: 200 * ms)
        }
        #expect(h.touchLog == ["2 began", "2 ended"])
    }

    @Test func passthroughFalseCoversTheViewsInside() throws {
        var m = ModelBuilder()
        m.view("strip", frame: Rect(x: 0, y: 0, width: 1000, height: 100), passthrough: false)
        m.view("knob", parent: "strip", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let h = deliver(try m.build()) { b in b.tap(1, x: 50, y: 50, at: 0) }
        #expect(h.touchLog.isEmpty)
    }

    // MARK: the panel's own cancels, capacity, reloads

    @Test func aContactTheNormalizerCancelsIsCancelled() throws {
        let h = deliver(try button()) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.cancel(1, at: 50 * ms)
        }
        #expect(h.touchLog == ["1 began", "1 cancelled"])
    }

    @Test func contactsBeyondTheEnginesCapacityPassUnchanged() throws {
        // 64 contacts fill the engine's table; the 65th and 66th are passed as the panel
        // reports them rather than eaten.
        let h = deliver(try button()) { b in
            for id in Int32(1)...66 { b.down(id, x: Double(id) * 10, y: 50, at: 0) }
            b.move(66, x: 700, y: 60, at: 10 * ms)
            for id in Int32(1)...66 { b.up(id, at: 20 * ms) }
        }
        #expect(h.engine.snapshot().droppedContacts == 2)
        #expect(h.touches.filter { $0.kind == .began }.count == 66)
        #expect(h.touches.filter { $0.kind == .ended }.count == 66)
        #expect(h.touchLog.contains("66 moved"))
        #expect(h.touches.first { $0.id == 66 }?.view == -1)
    }

    @Test func aReloadThatRemovesTheDelayingGestureShowsTheHeldTouch() throws {
        let model = try button {
            $0.gesture("press", .longPress, on: "button") { $0.delivery.delaysTouchesBegan = true }
        }
        var b = FrameBuilder()
        b.down(1, x: 500, y: 300, at: 0)
        let h = harness(model, builder: b)
        h.engine.touchDeliveryEnabled = true
        h.run(b.frames)
        #expect(h.touchLog.isEmpty)
        h.replace(try button(), at: 100 * ms)
        #expect(h.touchLog == ["1 began +100ms"])
    }

    // MARK: the rules one by one

    typealias Step = DeliveryRule.Step

    @Test func aNewContact() {
        let none = Claim()
        #expect(DeliveryRule.arrive(blocked: false, none) == Step(next: .shown, first: .began))
        #expect(DeliveryRule.arrive(blocked: true, none) == Step(next: .hidden))
        #expect(DeliveryRule.arrive(blocked: false, Claim(cancel: true)) == Step(next: .hidden))
        #expect(DeliveryRule.arrive(blocked: false, Claim(holdBegan: true)) == Step(next: .held))
        // A running gesture that delays began touches takes a new one without showing it,
        // unless another one still deciding holds it.
        #expect(DeliveryRule.arrive(blocked: false, Claim(discardBegan: true)) == Step(next: .hidden))
        #expect(DeliveryRule.arrive(blocked: false, Claim(holdBegan: true, discardBegan: true)) == Step(next: .held))
    }

    func step(
        _ state: AppTouchState, lifted: Bool = false, liftCancelled: Bool = false, moved: Bool = false,
        heldLift: Bool = false, _ claim: Claim = Claim()
    ) -> Step {
        DeliveryRule.step(state, lifted: lifted, liftCancelled: liftCancelled, moved: moved, heldLift: heldLift, claim)
    }

    @Test func aHeldContact() {
        #expect(step(.held, Claim(holdBegan: true)) == Step(next: .held))
        #expect(step(.held, lifted: true, Claim(holdBegan: true)) == Step(next: .held))
        #expect(step(.held, Claim(cancel: true)) == Step(next: .hidden))
        #expect(step(.held, Claim(discardBegan: true)) == Step(next: .hidden))
        #expect(step(.held, lifted: true, Claim(discardBegan: true)) == Step(next: nil))
        #expect(step(.held) == Step(next: .shown, first: .began))
        #expect(step(.held, lifted: true) == Step(next: nil, first: .began, second: .ended))
        // Released after it lifted while a gesture delaying lifts still decides: down, lift held.
        #expect(step(.held, lifted: true, Claim(holdEnded: true)) == Step(next: .endHeld, first: .began))
    }

    @Test func aShownContact() {
        #expect(step(.shown) == Step(next: .shown))
        #expect(step(.shown, moved: true) == Step(next: .shown, first: .moved))
        #expect(step(.shown, moved: true, Claim(cancel: true)) == Step(next: .cancelled, first: .cancelled))
        #expect(step(.shown, lifted: true, Claim(cancel: true)) == Step(next: nil, first: .cancelled))
        #expect(step(.shown, lifted: true) == Step(next: nil, first: .ended))
        #expect(step(.shown, lifted: true, liftCancelled: true) == Step(next: nil, first: .cancelled))
        #expect(step(.shown, lifted: true, heldLift: true, Claim(holdEnded: true)) == Step(next: .endHeld))
        #expect(step(.shown, lifted: true, heldLift: true, Claim(cancelEnded: true)) == Step(next: nil, first: .cancelled))
        #expect(step(.shown, lifted: true, heldLift: true) == Step(next: nil, first: .ended))
        // A gesture that recognized before the lift without cancelling does not hold it.
        #expect(step(.shown, lifted: true, Claim(cancelEnded: true)) == Step(next: nil, first: .ended))
    }

    @Test func aHeldLift() {
        #expect(step(.endHeld, lifted: true, Claim(holdEnded: true)) == Step(next: .endHeld))
        #expect(step(.endHeld, lifted: true, Claim(cancelEnded: true)) == Step(next: nil, first: .cancelled))
        #expect(step(.endHeld, lifted: true, Claim(cancel: true)) == Step(next: nil, first: .cancelled))
        #expect(step(.endHeld, lifted: true) == Step(next: nil, first: .ended))
    }

    @Test func cancelledAndHiddenContactsStaySilentUntilTheyLift() {
        for state in [AppTouchState.cancelled, .hidden] {
            #expect(step(state, moved: true) == Step(next: state))
            #expect(step(state, moved: true, Claim(holdBegan: true, holdEnded: true)) == Step(next: state))
            #expect(step(state, lifted: true) == Step(next: nil))
        }
    }

    @Test func whatOneGestureClaims() {
        var c = ContactClaims()
        c.add(0b01, options: DeliveryOptions(), undecided: true, recognized: false)
        #expect(c.of(0) == Claim(holdEnded: true))
        c.add(
            0b10, options: DeliveryOptions(cancelsTouches: true, delaysTouchesBegan: true, delaysTouchesEnded: true),
            undecided: false, recognized: true)
        #expect(c.of(1) == Claim(cancel: true, discardBegan: true, cancelEnded: true))
        // A failed gesture claims nothing.
        c.add(0b100, options: DeliveryOptions(delaysTouchesBegan: true), undecided: false, recognized: false)
        #expect(c.of(2) == Claim())
    }
}
