/// `UITapGestureRecognizer`: `taps` taps of `touches` contacts, each contact moving at most
/// `maxMovement`, held at least `minPress`; the next tap down within `tapInterval` of the
/// previous lift and within `tapDistance` of it. Discrete. States: docs/SEMANTICS.md, "Tap".
final class TapRecognizer: Recognizer, FailingRecognizer {
    enum State: RecognizerState {
        case idle
        /// Tap number `tap` (0-based) is down since `downAt`; `most` contacts were down at once.
        case pressing(tap: Int, downAt: Microseconds, most: Int)
        /// Taps completed, waiting for the next.
        case betweenTaps(TapGap)
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
            case .betweenTaps(let gap):
                if let refusal = gap.refusal(input, interval: parameters.tapInterval, distance: parameters.tapDistance) {
                    return fail(refusal)
                }
                state = .pressing(tap: gap.done, downAt: input.time, most: 0)
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
        state = .betweenTaps(TapGap(done: tap + 1, liftedIn: input))
        return .none
    }

    var deadline: Microseconds? {
        if case .betweenTaps(let gap) = state { return gap.deadline(parameters.tapInterval) }
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
