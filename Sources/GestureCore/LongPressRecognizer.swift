/// `UILongPressGestureRecognizer`: `taps` quick taps first (0 by default, each next one
/// down within `tapInterval` of the previous lift), then `touches`
/// contacts held for `minimumPressDuration` (inclusive) without moving more than
/// `allowableMovement`. Continuous: began at the duration, changed on movement, ended at lift.
/// States: docs/SEMANTICS.md, "Long press".
final class LongPressRecognizer: Recognizer, ContinuousRecognizer {
    enum State: ContinuousState {
        case idle
        /// Contacts going down; `reachedAt` is when `touches` were down together.
        case pressing(downAt: Microseconds, reachedAt: Microseconds?, tapsDone: Int)
        case betweenTaps(TapGap)
        case active
        case finished
    }

    var state = State.idle
    private let parameters: LongPressParameters
    var location = Location()

    init(_ parameters: LongPressParameters) { self.parameters = parameters }

    func update(_ input: RecognizerInput) -> RecognizerVerdict {
        if input.began != 0 {
            switch state {
            case .idle:
                state = .pressing(downAt: input.time, reachedAt: nil, tapsDone: 0)
            case .betweenTaps(let gap):
                // No distance rule: UIKit's long press has none for its taps.
                if let refusal = gap.refusal(input, interval: parameters.tapInterval, distance: nil) { return fail(refusal) }
                state = .pressing(downAt: input.time, reachedAt: nil, tapsDone: gap.done)
            case .pressing, .active, .finished:
                break
            }
        }
        switch state {
        case .idle, .betweenTaps, .finished:
            return .none
        case .active:
            return follow(input, live: input.live, mask: input.mask, ending: input.live == 0)
        case .pressing(let downAt, var reachedAt, let tapsDone):
            let down = input.mask.nonzeroBitCount
            if down > parameters.touches { return fail(.tooManyTouches(down, allowed: parameters.touches)) }
            let limit = input.geometry.millimeters(parameters.allowableMovement)
            let travel = input.contacts.largestTravelMM(input.mask)
            if travel > limit { return fail(.moved(mm: travel, limit: limit)) }
            location.update(input, input.mask)
            if input.live == 0 {
                guard tapsDone < parameters.taps else {
                    return fail(.heldTooShort(held: input.time - (reachedAt ?? downAt), minimum: parameters.minimumPressDuration))
                }
                state = .betweenTaps(TapGap(done: tapsDone + 1, liftedIn: input))
                return .none
            }
            let liveCount = input.liveCount
            if reachedAt == nil, liveCount == parameters.touches, tapsDone == parameters.taps {
                reachedAt = input.time
            } else if reachedAt != nil, liveCount < parameters.touches {
                return fail(.tooFewTouches(liveCount, required: parameters.touches))
            }
            state = .pressing(downAt: downAt, reachedAt: reachedAt, tapsDone: tapsDone)
            return .none
        }
    }

    var deadline: Microseconds? {
        switch state {
        case .pressing(_, let reachedAt?, _): reachedAt + parameters.minimumPressDuration
        case .betweenTaps(let gap): gap.deadline(parameters.tapInterval)
        default: nil
        }
    }

    func expire(_ input: RecognizerInput) -> RecognizerVerdict {
        switch state {
        case .pressing(_, let reachedAt?, _):
            location.update(input, input.live)
            return begin(.heldLongEnough(held: input.time - reachedAt, minimum: parameters.minimumPressDuration))
        case .betweenTaps:
            return fail(.tapIntervalElapsed(parameters.tapInterval))
        default:
            return .none
        }
    }

    func measure(into event: inout GestureEvent) { location.write(into: &event) }

    func reset() {
        state = .idle
        location = Location()
    }
}
