/// `UIRotationGestureRecognizer`: the line through two contacts turns by more than
/// `rotationThreshold` radians. Rotation is 0 at began, clockwise positive, re-baselined when
/// the contacts change. Continuous; ends when all contacts lift.
final class RotationRecognizer: Recognizer {
    enum State: Equatable { case idle, tracking, active, finished }

    private(set) var state = State.idle
    private let parameters: GestureParameters
    private var set: ContactMask = 0
    private var lastAngle: Double?
    private var rotation = 0.0, velocity = 0.0
    private var lastTime: Microseconds = 0
    private var location = Location()

    init(_ parameters: GestureParameters) { self.parameters = parameters }

    func update(_ input: RecognizerInput) -> RecognizerVerdict {
        if state == .idle, input.began != 0 { state = .tracking }
        switch state {
        case .idle, .finished:
            return .none
        case .tracking:
            if input.live == 0 { return fail(.liftedBeforeRecognized) }
            follow(input)
            location.update(input, input.live)
            guard abs(rotation) > parameters.rotationThreshold else { return .none }
            let turned = rotation
            state = .active
            rotation = 0
            velocity = 0
            return .began(.rotated(radians: abs(turned), limit: parameters.rotationThreshold))
        case .active:
            if input.live == 0 {
                state = .finished
                location.update(input, input.mask)
                return .ended(.allLifted)
            }
            follow(input)
            location.update(input, input.live)
            return .changed
        }
    }

    /// Adds the turn since the last frame with the same contacts.
    private func follow(_ input: RecognizerInput) {
        let live = input.live
        let angle = input.contacts.angle(live)
        defer {
            set = live
            lastAngle = angle
            lastTime = input.time
        }
        guard live == set, let angle, let lastAngle else { return }
        let turn = wrappedAngle(angle - lastAngle)
        if input.time > lastTime, turn != 0 {
            velocity = turn / (Double(input.time - lastTime) / 1_000_000)
        }
        rotation += turn
    }

    var deadline: Microseconds? { nil }
    func expire(_ input: RecognizerInput) -> RecognizerVerdict { .none }

    func measure(into event: inout GestureEvent) {
        location.write(into: &event)
        event.rotation = rotation
        event.velocity = velocity
    }

    func reset() {
        state = .idle
        set = 0
        lastAngle = nil
        rotation = 0
        velocity = 0
        location = Location()
    }

    private func fail(_ reason: TraceReason) -> RecognizerVerdict {
        state = .finished
        return .failed(reason)
    }
}
