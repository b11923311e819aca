/// `UITapGestureRecognizer`: `taps` taps of `touches` contacts, each contact moving at most
/// `maxMovement`, held at least `minPress`; the next tap down within `tapInterval` of the
/// previous lift and within `tapDistance` of it. Discrete.
final class TapRecognizer: Recognizer, FailingRecognizer {
    enum State: RecognizerState {
        case idle
        /// Tap number `tap` (0-based) is down since `downAt`; `most` contacts were down at once.
        case pressing(tap: Int, downAt: Microseconds, most: Int)
        /// `done` taps completed, the last lifted at `liftAt` around (mmX, mmY).
        case betweenTaps(done: Int, liftAt: Microseconds, mmX: Double, mmY: Double)
        case finished
    }

    var state = State.idle
    private let parameters: TapParameters
    private var location = Location()

    init(_ parameters: TapParameters) { self.parameters = parameters }

    func update(_ input: RecognizerInput) -> RecognizerVerdict {
        if input.began != 0 {
            switch state {
            case .idle:
                state = .pressing(tap: 0, downAt: input.time, most: 0)
            case .betweenTaps(let done, let liftAt, let mmX, let mmY):
                if input.time - liftAt > parameters.tapInterval { return fail(.tapIntervalElapsed(parameters.tapInterval)) }
                let c = input.contacts.centroidMM(input.began)
                let limit = input.geometry.millimeters(parameters.tapDistance)
                let away = length(c.x - mmX, c.y - mmY)
                if away > limit { return fail(.tapTooFar(mm: away, limit: limit)) }
                state = .pressing(tap: done, downAt: input.time, most: 0)
            case .pressing, .finished:
                break
            }
        }
        guard case .pressing(let tap, let downAt, var most) = state else { return .none }
        let down = input.mask.nonzeroBitCount
        // The tap is where the most contacts were down together.
        if down >= most { location.update(input, input.mask) }
        most = max(most, down)
        if down > parameters.touches { return fail(.tooManyTouches(down, allowed: parameters.touches)) }
        let limit = input.geometry.millimeters(parameters.maxMovement)
        let travel = input.contacts.largestTravelMM(input.mask)
        if travel > limit { return fail(.moved(mm: travel, limit: limit)) }
        state = .pressing(tap: tap, downAt: downAt, most: most)
        guard input.live == 0 else { return .none }

        // Every contact of this tap has lifted.
        if most < parameters.touches { return fail(.tooFewTouches(most, required: parameters.touches)) }
        let held = input.time - downAt
        if held < parameters.minPress { return fail(.heldTooShort(held: held, minimum: parameters.minPress)) }
        if tap + 1 >= parameters.taps {
            state = .finished
            return .recognized(.tapsCompleted(tap + 1))
        }
        let c = input.contacts.centroidMM(input.mask)
        state = .betweenTaps(done: tap + 1, liftAt: input.time, mmX: c.x, mmY: c.y)
        return .none
    }

    /// The next tap may go down at `liftAt + tapInterval` exactly, so it fails a microsecond later.
    var deadline: Microseconds? {
        if case .betweenTaps(_, let liftAt, _, _) = state { return liftAt + parameters.tapInterval + 1 }
        return nil
    }

    func expire(_ input: RecognizerInput) -> RecognizerVerdict {
        guard case .betweenTaps = state else { return .none }
        return fail(.tapIntervalElapsed(parameters.tapInterval))
    }

    func measure(into event: inout GestureEvent) { location.write(into: &event) }

    func reset() {
        state = .idle
        location = Location()
    }
}
