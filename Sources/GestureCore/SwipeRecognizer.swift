/// `UISwipeGestureRecognizer` with our thresholds: `touches` contacts travel more than
/// `minDistance` along one of `directions`, at an average of at least `minSpeed`
/// since the first touch-down, within `maxAngle` of the axis. Fails at `maxDuration`
/// after the first touch-down, on reversal, off axis, or when its contacts lift. Discrete.
final class SwipeRecognizer: Recognizer, FailingRecognizer {
    enum State: RecognizerState {
        case idle
        /// Following the contacts since `downAt`; `farthest` is the largest travel so far
        /// along the leading direction.
        case tracking(downAt: Microseconds, farthest: Double)
        case finished
    }

    var state = State.idle
    private let parameters: SwipeParameters
    private var tracker = CentroidTracker()
    private var location = Location()
    private var direction: Directions = []

    init(_ parameters: SwipeParameters) { self.parameters = parameters }

    func update(_ input: RecognizerInput) -> RecognizerVerdict {
        if state == .idle, input.began != 0 { state = .tracking(downAt: input.time, farthest: 0) }
        guard case .tracking(let downAt, var farthest) = state else { return .none }
        let down = input.mask.nonzeroBitCount
        if down > parameters.touches { return fail(.tooManyTouches(down, allowed: parameters.touches)) }
        if input.live == 0 { return fail(.liftedBeforeRecognized) }
        tracker.track(input.contacts, input.live, at: input.time)
        location.update(input, input.live)

        let (leading, along, across) = leadingDirection()
        let jitter = GestureDefaults.swipeJitter
        let angle = angleOf(dy: abs(across), dx: along)
        if tracker.distanceMM > jitter, along <= 0 || angle > parameters.maxAngle {
            return fail(.offAxis(radians: along <= 0 ? .pi / 2 : angle, limit: parameters.maxAngle))
        }
        if farthest - along > jitter { return fail(.swipeReversed(mm: farthest - along)) }
        farthest = max(farthest, along)
        state = .tracking(downAt: downAt, farthest: farthest)

        let distance = input.geometry.millimeters(parameters.minDistance)
        guard along > distance else { return .none }
        if down < parameters.touches { return fail(.tooFewTouches(down, required: parameters.touches)) }
        let seconds = Double(max(input.time - downAt, 1)) / 1_000_000
        let speed = along / seconds
        if speed < parameters.minSpeed {
            return fail(.swipeTooSlow(speed: speed, minimum: parameters.minSpeed))
        }
        direction = leading
        state = .finished
        return .recognized(.swiped(leading, mm: along, speed: speed))
    }

    /// The allowed direction the travel leads in, with the travel along it and across it (mm).
    private func leadingDirection() -> (Directions, along: Double, across: Double) {
        let dx = tracker.translationMMX, dy = tracker.translationMMY
        var best: (Directions, along: Double, across: Double) = ([], -.infinity, 0)
        consider(.right, dx, dy, &best)
        consider(.left, -dx, dy, &best)
        consider(.down, dy, dx, &best)
        consider(.up, -dy, dx, &best)
        return best
    }

    private func consider(_ d: Directions, _ along: Double, _ across: Double,
                          _ best: inout (Directions, along: Double, across: Double)) {
        if parameters.directions.contains(d), along > best.along { best = (d, along, across) }
    }

    var deadline: Microseconds? {
        if case .tracking(let downAt, _) = state { return downAt + parameters.maxDuration }
        return nil
    }

    func expire(_ input: RecognizerInput) -> RecognizerVerdict {
        guard case .tracking = state else { return .none }
        return fail(.swipeDeadline(parameters.maxDuration))
    }

    func measure(into event: inout GestureEvent) {
        location.write(into: &event)
        event.direction = direction
    }

    func reset() {
        state = .idle
        tracker = CentroidTracker()
        location = Location()
        direction = []
    }
}
