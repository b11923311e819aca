import Testing

@testable import GestureCore

/// `PinchRecognizer` and `RotationRecognizer` on their own: (state, input, next state,
/// verdict), the table of docs/SEMANTICS.md. Default panel: 1 px = 0.25 mm, so the 10 pt
/// pinch threshold is 6.2 px of span.
@Suite struct TransformRecognizerTests {
    private let first = ProbeInput.down(1, x: 100, y: 100, ms: 0)
    private let second = ProbeInput.down(2, x: 200, y: 100, ms: 10)

    @Test func pinch() {
        // Two contacts 100 px apart: a span of 50 px.
        let spread = ProbeInput.move(2, x: 220, y: 100, ms: 20)
        RecognizerProbe.check([
            TransitionRow("idle", first, "tracking", "none"),
            TransitionRow("tracking", after: [first], second, "tracking", "none"),
            TransitionRow("tracking", after: [first], .up(1, ms: 10), "finished", "failed"),
            TransitionRow("tracking", after: [first, second], .move(2, x: 205, y: 100, ms: 20), "tracking", "none"),
            TransitionRow("tracking", after: [first, second], spread, "active", "began"),
            TransitionRow("active", after: [first, second, spread], .move(2, x: 240, y: 100, ms: 30), "active", "changed"),
            TransitionRow("active", after: [first, second, spread], .up(2, ms: 30), "active", "changed"),
            TransitionRow("active", after: [first, second, spread], .frame(ms: 30, [.up(1), .up(2)]), "finished", "ended"),
        ]) { PinchRecognizer(parameters(PinchParameters.self)) }
    }

    @Test func rotation() {
        let turned = ProbeInput.move(2, x: 200, y: 115, ms: 20)
        RecognizerProbe.check([
            TransitionRow("idle", first, "tracking", "none"),
            TransitionRow("tracking", after: [first, second], .move(2, x: 200, y: 105, ms: 20), "tracking", "none"),
            TransitionRow("tracking", after: [first, second], turned, "active", "began"),
            TransitionRow("active", after: [first, second, turned], .move(2, x: 200, y: 130, ms: 30), "active", "changed"),
            TransitionRow("active", after: [first, second, turned], .frame(ms: 30, [.up(1), .up(2)]), "finished", "ended"),
        ]) { RotationRecognizer(parameters(RotationParameters.self)) }
    }
}
