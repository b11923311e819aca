import DaemonTestSupport
import GestureConfig
import GestureCore
import LinuxSystem
import Logging
import Testing

@testable import ActionDispatch
@testable import SystemLoop

/// The keyboard's frames as written, one string per frame: `+29 +19` down, `-19 -29` up.
final class RecordedKeyboard: KeyboardOutput {
    let devnode = "/dev/input/event99"
    var frames: [String] = []
    var fails = false
    func write(_ keys: [(code: UInt16, down: Bool)]) throws(SystemError) {
        if fails { throw SystemError("write", path: devnode, code: 5) }
        frames.append(keys.map { ($0.down ? "+" : "-") + "\($0.code)" }.joined(separator: " "))
    }
}

/// `keys` actions: presses, holds, steps, and that no key is left down.
@Suite struct KeyActionTests {
    let logger = Logger(label: "test")
    static let ctrl: UInt16 = 29
    static let r: UInt16 = 19
    static let shift: UInt16 = 42
    static let f5: UInt16 = 63

    // MARK: the presser alone, with explicit times

    @Test func aPressIsDownThenUpReleasingInReverse() {
        let keyboard = RecordedKeyboard()
        let keys = KeyPresser(output: keyboard)
        keys.press([Self.ctrl, Self.r], delay: 0, at: 1000)
        #expect(keyboard.frames == ["+29 +19", "-19 -29"])
        #expect(keys.nextDeadline == nil && !keys.holdsKeys)
    }

    @Test func aDelayedPressGoesUpAtItsTime() {
        let keyboard = RecordedKeyboard()
        let keys = KeyPresser(output: keyboard)
        keys.press([Self.f5], delay: 20_000, at: 1000)
        #expect(keyboard.frames == ["+63"])
        #expect(keys.nextDeadline == 21_000)
        keys.advance(to: 20_999)
        #expect(keyboard.frames == ["+63"])
        keys.advance(to: 21_000)
        #expect(keyboard.frames == ["+63", "-63"])
    }

    @Test func aKeyTwoActionsHoldGoesUpWithTheLast() {
        let keyboard = RecordedKeyboard()
        let keys = KeyPresser(output: keyboard)
        let pan = KeyPresser.Owner(gesture: 0, device: DeviceID(1))
        keys.hold([Self.shift], owner: pan, at: 0)
        // A press of Shift+R while Shift is held: only R moves.
        keys.press([Self.shift, Self.r], delay: 0, at: 10)
        #expect(keyboard.frames == ["+42", "+19", "-19"])
        keys.release(KeyPresser.Owner(gesture: 1, device: DeviceID(1)))
        #expect(keyboard.frames.count == 3, "another owner holds nothing")
        keys.release(pan)
        #expect(keyboard.frames == ["+42", "+19", "-19", "-42"])
        #expect(!keys.holdsKeys)
    }

    @Test func theWatchdogLetsGoOfAHoldAfterTheMaximum() {
        let keyboard = RecordedKeyboard()
        let keys = KeyPresser(output: keyboard)
        let owner = KeyPresser.Owner(gesture: 2, device: DeviceID(1))
        keys.hold([Self.ctrl], owner: owner, at: 5)
        #expect(keys.nextDeadline == 5 + KeyPresser.maximumHold)
        #expect(keys.advance(to: 4 + KeyPresser.maximumHold).isEmpty)
        #expect(keyboard.frames == ["+29"])
        #expect(keys.advance(to: 5 + KeyPresser.maximumHold) == [owner])
        #expect(keyboard.frames == ["+29", "-29"])
        #expect(keys.watchdogReleases == 1 && keys.nextDeadline == nil)
    }

    @Test func releaseAllLetsGoOfHoldsAndDelayedPresses() {
        let keyboard = RecordedKeyboard()
        let keys = KeyPresser(output: keyboard)
        keys.hold([Self.shift], owner: KeyPresser.Owner(gesture: 0, device: DeviceID(1)), at: 0)
        keys.press([Self.f5], delay: 500_000, at: 0)
        keys.releaseAll()
        #expect(keyboard.frames == ["+42", "+63", "-63", "-42"])
        #expect(!keys.holdsKeys && keys.nextDeadline == nil)
    }

    @Test func aFailedWriteIsCountedAndTheCountsStayRight() {
        let keyboard = RecordedKeyboard()
        let keys = KeyPresser(output: keyboard)
        keyboard.fails = true
        keys.press([Self.f5], delay: 0, at: 0)
        #expect(keys.failures == 2 && keys.lastFailure?.code == 5)
        keyboard.fails = false
        keys.press([Self.f5], delay: 0, at: 0)
        #expect(keyboard.frames == ["+63", "-63"])
    }

    // MARK: steps, at both sides of each step

    @Test func stepsPressAtEachStepAndBackAfterAWholeStep() {
        var steps = KeySteps(size: 0.25)
        #expect(steps.presses(for: 0.2499) == 0)
        #expect(steps.presses(for: 0.25) == 1)
        #expect(steps.presses(for: 0.4999) == 0)
        #expect(steps.presses(for: 0.5) == 1)
        // Hovering just under the step reached: nothing; a whole step back: one back.
        #expect(steps.presses(for: 0.4999) == 0)
        #expect(steps.presses(for: 0.2501) == 0)
        #expect(steps.presses(for: 0.25) == -1)
        #expect(steps.level == 1)
        #expect(steps.presses(for: 0.0001) == 0)
        #expect(steps.presses(for: 0) == -1)
        #expect(steps.presses(for: -0.2499) == 0)
        #expect(steps.presses(for: -0.25) == -1)
        // A jump over several steps presses once per step, bounded.
        #expect(steps.presses(for: 0.75) == 4)
        #expect(steps.presses(for: 1000) == KeySteps.maximumPerEvent)
        steps.reset()
        #expect(steps.level == 0)
    }

    // MARK: through the dispatcher

    private func event(_ gesture: Int, _ state: GestureState, time: Int64, scale: Double = 1, device: Int = 1) -> GestureEvent {
        GestureEvent(time: time, gesture: gesture, view: 1, state: state, device: DeviceID(UInt32(device)), scale: scale)
    }

    private func dispatcher(
        _ gestures: [(String, GestureType, [GestureState: [ActionSpec]])], clock: ManualClock, keyboard: RecordedKeyboard,
        made: @escaping ([UInt16]) -> Void = { _ in }
    ) throws -> (Dispatcher, EventLoop) {
        let loop = try EventLoop(clock: .manual(clock))
        let dispatcher = try Dispatcher(
            loop: loop, configuration: try makeConfiguration(gestures), origin: 0, logger: logger,
            keyboard: { codes throws(SystemError) in
                made(codes)
                return keyboard
            })
        return (dispatcher, loop)
    }

    @Test func aHoldIsDownFromBeganToEndedOrCancelledAndSteppedKeysFollowTheScale() throws {
        let clock = ManualClock()
        let keyboard = RecordedKeyboard()
        var made: [[UInt16]] = []
        let hold = ActionSpec(kind: .keys(KeyAction(chord: [Self.shift], mode: .hold)))
        let zoom = ActionSpec(kind: .keys(KeyAction(chord: [Self.ctrl, 13], mode: .step(.scale, size: 0.25, back: [Self.ctrl, 12]))))
        let (dispatcher, _) = try dispatcher(
            [("drag", .pan, [.began: [hold]]), ("zoom", .pinch, [.changed: [zoom]])], clock: clock, keyboard: keyboard,
            made: { made.append($0) })
        #expect(made == [[12, 13, Self.ctrl, Self.shift]])
        dispatcher.dispatch(event(0, .began, time: 10))
        dispatcher.dispatch(event(0, .changed, time: 20))
        #expect(keyboard.frames == ["+42"])
        dispatcher.dispatch(event(0, .ended, time: 30))
        #expect(keyboard.frames == ["+42", "-42"])
        dispatcher.dispatch(event(0, .began, time: 40))
        dispatcher.dispatch(event(0, .cancelled, time: 50))
        #expect(keyboard.frames == ["+42", "-42", "+42", "-42"])

        keyboard.frames = []
        dispatcher.dispatch(event(1, .began, time: 60))
        dispatcher.dispatch(event(1, .changed, time: 70, scale: 1.2))
        dispatcher.dispatch(event(1, .changed, time: 80, scale: 1.3))
        dispatcher.dispatch(event(1, .changed, time: 90, scale: 0.99))
        #expect(keyboard.frames == ["+29 +13", "-13 -29", "+29 +12", "-12 -29"])
        // A new pinch counts from its own began.
        dispatcher.dispatch(event(1, .ended, time: 100, scale: 0.99))
        dispatcher.dispatch(event(1, .began, time: 110))
        dispatcher.dispatch(event(1, .changed, time: 120, scale: 1.1))
        #expect(keyboard.frames.count == 4)
    }

    @Test func theWatchdogAndDelaysRunOnTheLoopsClock() throws {
        let clock = ManualClock()
        let keyboard = RecordedKeyboard()
        let hold = ActionSpec(kind: .keys(KeyAction(chord: [Self.shift], mode: .hold)))
        let press = ActionSpec(kind: .keys(KeyAction(chord: [Self.f5], mode: .press(delay: 30_000))))
        let (dispatcher, loop) = try dispatcher(
            [("drag", .pan, [.began: [hold]]), ("reload", .swipe, [.recognized: [press]])], clock: clock, keyboard: keyboard)
        dispatcher.dispatch(event(1, .recognized, time: clock.now))
        dispatcher.dispatch(event(0, .began, time: clock.now))
        #expect(keyboard.frames == ["+63", "+42"])
        clock.advance(by: 29_999)
        _ = try loop.runOnce(timeoutMilliseconds: 0)
        #expect(keyboard.frames == ["+63", "+42"])
        clock.advance(by: 1)
        _ = try loop.runOnce(timeoutMilliseconds: 0)
        #expect(keyboard.frames == ["+63", "+42", "-63"])
        clock.advance(by: KeyPresser.maximumHold - 30_000)
        _ = try loop.runOnce(timeoutMilliseconds: 0)
        #expect(keyboard.frames == ["+63", "+42", "-63", "-42"])
        #expect(dispatcher.keys.watchdogReleases == 1)
    }

    @Test func aReloadReleasesEveryKeyAndKeepsAKeyboardWithTheSameKeys() throws {
        let clock = ManualClock()
        let keyboard = RecordedKeyboard()
        var made = 0
        let hold = ActionSpec(kind: .keys(KeyAction(chord: [Self.shift], mode: .hold)))
        let gestures: [(String, GestureType, [GestureState: [ActionSpec]])] = [("drag", .pan, [.began: [hold]])]
        let (dispatcher, _) = try dispatcher(gestures, clock: clock, keyboard: keyboard, made: { _ in made += 1 })
        dispatcher.dispatch(event(0, .began, time: 10))
        try dispatcher.reconfigure(try makeConfiguration(gestures))
        #expect(keyboard.frames == ["+42", "-42"])
        #expect(made == 1, "the same keys: the same keyboard")
        let other = ActionSpec(kind: .keys(KeyAction(chord: [Self.f5])))
        try dispatcher.reconfigure(try makeConfiguration([("drag", .pan, [.began: [other]])]))
        #expect(made == 2 && dispatcher.keyboardCodes == [Self.f5])
        try dispatcher.reconfigure(try makeConfiguration([("drag", .pan, [:])]))
        #expect(dispatcher.keyboard == nil && made == 2)
        dispatcher.releaseKeys()
        #expect(keyboard.frames == ["+42", "-42"])
    }

    @Test func aKeyboardThatCannotBeMadeIsReported() throws {
        let loop = try EventLoop(clock: .manual(ManualClock()))
        let press = ActionSpec(kind: .keys(KeyAction(chord: [Self.f5])))
        let dispatcher = try Dispatcher(
            loop: loop, configuration: try makeConfiguration([("t", .tap, [.recognized: [press]])]), origin: 0, logger: logger,
            keyboard: { _ throws(SystemError) in throw SystemError("open", path: "/dev/uinput", code: 13) })
        #expect(dispatcher.keyboard == nil)
        #expect(dispatcher.keyboardError?.code == 13)
        dispatcher.dispatch(event(0, .recognized, time: 0))
        #expect(dispatcher.keys.framesSent == 0)
    }
}
