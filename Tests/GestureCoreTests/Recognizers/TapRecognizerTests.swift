import Testing

@testable import GestureCore

/// `TapRecognizer` on its own: (state, input, next state, verdict), the table of
/// docs/SEMANTICS.md. Default panel: 1 px = 0.25 mm, so 3 mm = 12 px, 10 mm = 40 px.
@Suite struct TapRecognizerTests {
    private let down = ProbeInput.down(1, x: 100, y: 100, ms: 0)
    private let lifted = ProbeInput.up(1, ms: 80)

    @Test func aDoubleTap() {
        RecognizerProbe.check([
            TransitionRow("idle", down, .exactly(.pressing(tap: 0, downAt: 0, most: 1)), "none"),
            TransitionRow(
                "pressing", after: [down], .move(1, x: 111, y: 100, ms: 10), .exactly(.pressing(tap: 0, downAt: 0, most: 1)), "none"),
            TransitionRow("pressing", after: [down], .move(1, x: 113, y: 100, ms: 10), "finished", "failed"),
            TransitionRow("pressing", after: [down], .down(2, x: 150, y: 100, ms: 10), "finished", "failed"),
            TransitionRow(
                "pressing", after: [down], lifted, .exactly(.betweenTaps(TapGap(done: 1, liftAt: 80000, mmX: 25.0, mmY: 25.0))), "none"),
            TransitionRow(
                "betweenTaps", after: [down, lifted], .down(1, x: 100, y: 100, ms: 430),
                .exactly(.pressing(tap: 1, downAt: 430000, most: 1)), "none"),
            TransitionRow("betweenTaps", after: [down, lifted], .down(1, x: 100, y: 100, ms: 431), "finished", "failed"),
            TransitionRow("betweenTaps", after: [down, lifted], .down(1, x: 141, y: 100, ms: 200), "finished", "failed"),
            TransitionRow("betweenTaps", after: [down, lifted], .deadline, "finished", "failed"),
            TransitionRow(
                .exactly(.pressing(tap: 1, downAt: 200000, most: 1)), after: [down, lifted, .down(1, x: 100, y: 100, ms: 200)],
                .up(1, ms: 260), "finished", "recognized"),
        ]) { TapRecognizer(parameters(TapParameters.self) { $0.taps = 2 }) }
    }

    @Test func twoFingers() {
        let both = ProbeInput.frame(ms: 0, [.down(1, x: 100, y: 100), .down(2, x: 140, y: 100)])
        RecognizerProbe.check([
            TransitionRow("pressing", after: [down], lifted, "finished", "failed"),
            TransitionRow(
                .exactly(.pressing(tap: 0, downAt: 0, most: 2)), after: [both], .frame(ms: 80, [.up(1), .up(2)]),
                "finished", "recognized"),
            TransitionRow(
                .exactly(.pressing(tap: 0, downAt: 0, most: 2)), after: [both], .up(1, ms: 60),
                .exactly(.pressing(tap: 0, downAt: 0, most: 2)), "none"),
        ]) { TapRecognizer(parameters(TapParameters.self) { $0.touches = 2 }) }
    }

    @Test func minimumPress() {
        RecognizerProbe.check([
            TransitionRow("pressing", after: [down], .up(1, ms: 59), "finished", "failed"),
            TransitionRow("pressing", after: [down], .up(1, ms: 60), "finished", "recognized"),
        ]) { TapRecognizer(parameters(TapParameters.self) { $0.minPress = 60_000 }) }
    }
}
