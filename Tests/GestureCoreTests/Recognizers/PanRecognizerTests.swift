import Testing

@testable import GestureCore

/// `PanRecognizer` (pan and edge pan) on its own: (state, input, next state, verdict), the
/// table of docs/SEMANTICS.md. Default panel: 1 px = 0.25 mm, so the 10 pt threshold is
/// 6.2 px and the 5 mm edge margin 20 px.
@Suite struct PanRecognizerTests {
    private let down = ProbeInput.down(1, x: 100, y: 100, ms: 0)
    private let moved = ProbeInput.move(1, x: 107, y: 100, ms: 10)

    @Test func oneFinger() {
        RecognizerProbe.check([
            TransitionRow("idle", down, "tracking", "none"),
            TransitionRow("tracking", after: [down], .move(1, x: 105, y: 100, ms: 10), "tracking", "none"),
            TransitionRow("tracking", after: [down], moved, "active", "began"),
            TransitionRow("tracking", after: [down], .up(1, ms: 50), "finished", "failed"),
            TransitionRow("active", after: [down, moved], .move(1, x: 120, y: 100, ms: 20), "active", "changed"),
            TransitionRow("active", after: [down, moved], .up(1, ms: 30), "finished", "ended"),
        ]) { PanRecognizer(parameters(PanParameters.self)) }
    }

    @Test func maximumTouches() {
        RecognizerProbe.check([
            TransitionRow("tracking", after: [down], .down(2, x: 200, y: 100, ms: 10), "finished", "failed"),
            // After it began, the extra contact is ignored for the rest of the gesture.
            TransitionRow("active", after: [down, moved], .down(2, x: 300, y: 300, ms: 20), "active", "none"),
        ]) { PanRecognizer(parameters(PanParameters.self) { $0.maximumTouches = 1 }) }
    }

    @Test func minimumTouches() {
        let both = ProbeInput.frame(ms: 0, [.down(1, x: 100, y: 100), .down(2, x: 200, y: 100)])
        let bothMoved = ProbeInput.frame(ms: 10, [.move(1, x: 120, y: 100), .move(2, x: 220, y: 100)])
        RecognizerProbe.check([
            TransitionRow("tracking", after: [down], .move(1, x: 150, y: 100, ms: 10), "tracking", "none"),
            TransitionRow("tracking", after: [both], bothMoved, "active", "began"),
            TransitionRow("active", after: [both, bothMoved], .up(2, ms: 20), "finished", "ended"),
        ]) { PanRecognizer(parameters(PanParameters.self) { $0.minimumTouches = 2 }) }
    }

    @Test func edgePan() {
        RecognizerProbe.check([
            TransitionRow("idle", .down(1, x: 100, y: 300, ms: 0), "finished", "failed"),
            TransitionRow("idle", .down(1, x: 10, y: 300, ms: 0), "tracking", "none"),
        ]) { PanRecognizer(parameters(EdgePanParameters.self) { $0.edges = .left }) }
    }
}
