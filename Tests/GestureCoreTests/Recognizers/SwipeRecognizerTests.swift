import Testing

@testable import GestureCore

/// `SwipeRecognizer` on its own: (state, input, next state, verdict), the table of
/// docs/SEMANTICS.md; the rule that judges the stroke has its own tests (SwipeTests).
/// Default panel: 1 px = 0.25 mm.
@Suite struct SwipeRecognizerTests {
    private let down = ProbeInput.down(1, x: 100, y: 100, ms: 0)

    @Test func oneFingerRight() {
        RecognizerProbe.check([
            TransitionRow("idle", down, "tracking", "none"),
            // 25 mm right in 50 ms: past the 19 mm a stroke needs that early.
            TransitionRow("tracking", after: [down], .move(1, x: 200, y: 100, ms: 50), "finished", "recognized"),
            TransitionRow("tracking", after: [down], .up(1, ms: 50), "finished", "failed"),
            TransitionRow("tracking", after: [down], .deadline, "finished", "failed"),
        ]) { SwipeRecognizer(parameters(SwipeParameters.self)) }
    }
}
