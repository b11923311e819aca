import Testing

@testable import GestureCore

/// `LongPressRecognizer` on its own: (state, input, next state, verdict), the table of
/// docs/SEMANTICS.md. Default panel: 1 px = 0.25 mm, so 10 pt (1.56 mm) = 6.2 px.
@Suite struct LongPressRecognizerTests {
    private let down = ProbeInput.down(1, x: 100, y: 100, ms: 0)

    @Test func oneFinger() {
        let held = ExpectedState<LongPressRecognizer.State>.exactly(.pressing(downAt: 0, reachedAt: 0, tapsDone: 0))
        RecognizerProbe.check([
            TransitionRow("idle", down, held, "none"),
            TransitionRow(held, after: [down], .move(1, x: 105, y: 100, ms: 100), held, "none"),
            TransitionRow(held, after: [down], .move(1, x: 107, y: 100, ms: 100), "finished", "failed"),
            TransitionRow(held, after: [down], .down(2, x: 150, y: 100, ms: 100), "finished", "failed"),
            TransitionRow(held, after: [down], .up(1, ms: 200), "finished", "failed"),
            TransitionRow(held, after: [down], .deadline, "active", "began"),
            TransitionRow("active", after: [down, .deadline], .move(1, x: 150, y: 100, ms: 600), "active", "changed"),
            TransitionRow("active", after: [down, .deadline], .up(1, ms: 600), "finished", "ended"),
        ]) { LongPressRecognizer(parameters(LongPressParameters.self)) }
    }

    @Test func twoFingersTimeFromTheSecond() {
        let second = ProbeInput.down(2, x: 150, y: 100, ms: 50)
        RecognizerProbe.check([
            TransitionRow(
                .exactly(.pressing(downAt: 0, reachedAt: nil, tapsDone: 0)), after: [down], second,
                .exactly(.pressing(downAt: 0, reachedAt: 50000, tapsDone: 0)), "none"),
            TransitionRow(
                .exactly(.pressing(downAt: 0, reachedAt: 50000, tapsDone: 0)), after: [down, second],
                .up(2, ms: 100), "finished", "failed"),
        ]) { LongPressRecognizer(parameters(LongPressParameters.self) { $0.touches = 2 }) }
    }

    @Test func aTapFirst() {
        let lifted = ProbeInput.up(1, ms: 80)
        RecognizerProbe.check([
            TransitionRow(
                .exactly(.pressing(downAt: 0, reachedAt: nil, tapsDone: 0)), after: [down], lifted,
                .exactly(.betweenTaps(TapGap(done: 1, liftAt: 80000, mmX: 25.0, mmY: 25.0))), "none"),
            TransitionRow(
                "betweenTaps", after: [down, lifted], .down(1, x: 100, y: 100, ms: 200),
                .exactly(.pressing(downAt: 200000, reachedAt: 200000, tapsDone: 1)), "none"),
            TransitionRow("betweenTaps", after: [down, lifted], .down(1, x: 100, y: 100, ms: 431), "finished", "failed"),
            TransitionRow("betweenTaps", after: [down, lifted], .deadline, "finished", "failed"),
        ]) { LongPressRecognizer(parameters(LongPressParameters.self) { $0.taps = 1 }) }
    }
}
