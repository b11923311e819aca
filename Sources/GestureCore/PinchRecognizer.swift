/// `UIPinchGestureRecognizer`: two or more contacts whose span (mean distance from their
/// centroid) changes by more than `pinchThreshold`. Scale is 1 at began and follows the span,
/// re-baselined when the contact count changes. Continuous; ends when all contacts lift.
final class PinchRecognizer: Recognizer {
    enum State: Equatable { case idle, tracking, active, finished }

    private(set) var state = State.idle
    private let parameters: GestureParameters
    private var set: ContactMask = 0
    private var lastSpan = 0.0, lastSpanMM = 0.0
    /// Span change in mm accumulated while possible.
    private var spanTravelMM = 0.0
    private var scale = 1.0, velocity = 0.0
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
            let limit = input.geometry.millimeters(parameters.pinchThreshold)
            guard abs(spanTravelMM) > limit else { return .none }
            state = .active
            scale = 1
            velocity = 0
            return .began(.scaleChanged(mm: abs(spanTravelMM), limit: limit))
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

    /// Multiplies the scale by the span's change since the last frame with the same contacts.
    private func follow(_ input: RecognizerInput) {
        let live = input.live
        let span = input.contacts.span(live)
        defer {
            set = live
            lastSpan = span.px
            lastSpanMM = span.mm
            lastTime = input.time
        }
        guard live == set, live.nonzeroBitCount >= 2, lastSpan > 0 else { return }
        let factor = span.px / lastSpan
        spanTravelMM += span.mm - lastSpanMM
        if input.time > lastTime, factor != 1 {
            velocity = scale * (factor - 1) / (Double(input.time - lastTime) / 1_000_000)
        }
        scale *= factor
    }

    var deadline: Microseconds? { nil }
    func expire(_ input: RecognizerInput) -> RecognizerVerdict { .none }

    func measure(into event: inout GestureEvent) {
        location.write(into: &event)
        event.scale = scale
        event.velocity = velocity
    }

    func reset() {
        state = .idle
        set = 0
        lastSpan = 0
        lastSpanMM = 0
        spanTravelMM = 0
        scale = 1
        velocity = 0
        location = Location()
    }

    private func fail(_ reason: TraceReason) -> RecognizerVerdict {
        state = .finished
        return .failed(reason)
    }
}
