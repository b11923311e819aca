/// `UISwipeGestureRecognizer`, judged on the stroke as a whole, as a person reads it and as
/// UIKit does: no angle of the first millimetres decides anything. On every frame the
/// offset of the contacts' centroid from where they went down is compared with limits that
/// tighten over `maxDuration` (the rule and its keys: docs/CONFIG.md, "How a swipe is judged"):
///
/// - recognized in a direction of `directions` when the offset along it is more than the
///   distance needed, with the offset within `maxAngle` of it and an average speed along
///   it of at least `minSpeed` since the first touch-down. Mid-stroke the distance needed
///   falls from twice `minDistance` at touch-down to `minDistance` at `maxDuration`, so a
///   hook at the start of a fast stroke is not yet a swipe; the frame that lifts the last
///   contact completes the stroke, which then needs only `minDistance`;
/// - a direction is ruled out once the stroke has come back along it by more than `jitter`
///   (reversal, or movement backwards from the start), or moved across it further than the
///   distance needed at that moment;
/// - fails when every direction is ruled out; when, having gone `2 x jitter` from its
///   start, its average speed since the first touch-down is under `minSpeed` and it is not
///   fast now (a drag, so a pan waiting for the swipe to fail begins promptly); at
///   `maxDuration` after the first touch-down; or when its contacts lift without a swipe.
///   Fast is twice `minSpeed`, over the stroke since it left the `jitter` allowance and
///   went as far again (else since touch-down). Discrete.
final class SwipeRecognizer: Recognizer, FailingRecognizer {
    enum State: RecognizerState {
        case idle
        /// Following the contacts since `downAt`.
        case tracking(downAt: Microseconds)
        case finished
    }

    var state = State.idle
    private let parameters: SwipeParameters
    /// tan(`maxAngle`): the angle test compares across with along, no atan2 per frame.
    private let maxSlope: Double
    private var tracker = CentroidTracker()
    private var location = Location()
    private var progress = DirectionProgress()
    private var direction: Directions = []

    init(_ parameters: SwipeParameters) {
        self.parameters = parameters
        // From 90 deg on every offset that is not backwards is within the angle.
        maxSlope = parameters.maxAngle < .pi / 2 ? slope(of: parameters.maxAngle) : .infinity
    }

    func update(_ input: RecognizerInput) -> RecognizerVerdict {
        if state == .idle, input.began != 0 { state = .tracking(downAt: input.time) }
        guard case .tracking(let downAt) = state else { return .none }
        let down = input.mask.nonzeroBitCount
        if down > parameters.touches { return fail(.tooManyTouches(down, allowed: parameters.touches)) }
        // The frame that lifts the last contacts completes the stroke with their final positions.
        let lifting = input.live == 0
        let mask = lifting ? input.mask : input.live
        tracker.track(input.contacts, mask, at: input.time)
        location.update(input, mask)

        let g = input.geometry
        let jitter = g.millimeters(parameters.jitter)
        let floor = g.millimeters(parameters.minDistance)
        let elapsed = input.time - downAt
        let seconds = Double(max(elapsed, 1)) / 1_000_000
        let need = lifting ? floor : floor * (2 - Double(elapsed) / Double(parameters.maxDuration))
        let dx = tracker.translationMMX
        let dy = tracker.translationMMY
        let travel = length(dx, dy)
        if travel > jitter, progress.movedAt == nil { progress.moved(at: input.time, dx, dy) }
        // The speed since the stroke left the jitter allowance, once it has gone that far
        // again: what it does now, where the average since touch-down includes a rest.
        let leg = progress.movedAt.map { (mm: length(dx - progress.movedX, dy - progress.movedY), since: $0) }
        let legSpeed = leg.flatMap { $0.mm > jitter ? $0.mm / Double(max(input.time - $0.since, 1)) * 1_000_000 : nil }

        // UIKit: "a slow swipe requires high directional precision, a fast one low precision
        // but a large distance". Only a fast stroke may leave `maxAngle` on its way.
        let strokeSpeed = travel / seconds
        let fast = (legSpeed ?? strokeSpeed) >= 2 * parameters.minSpeed
        var judge = Judgement(
            directions: parameters.directions, jitter: jitter, sidewaysLimit: lifting ? nil : need,
            maxAngle: fast ? nil : parameters.maxAngle, maxSlope: maxSlope, moved: travel > jitter)
        // Each direction the same way, the diagonals included: along and across its unit vector.
        for i in 0..<Directions.all.count {
            let (_, d, x, y) = Directions.all[i]
            judge.consider(d, dx * x + dy * y, dy * x - dx * y, &progress)
        }
        if progress.ruledOut.isSuperset(of: parameters.directions), let reason = judge.ruledOutReason {
            return fail(reason)
        }
        // A drag, so a pan waiting for the swipe to fail begins promptly; a finger that
        // rested and now flicks is fast (and judged once its speed now is known).
        if travel > 2 * jitter, strokeSpeed < parameters.minSpeed, legSpeed != nil, !fast {
            return fail(.swipeTooSlow(speed: strokeSpeed, minimum: parameters.minSpeed))
        }
        guard let best = judge.best, best.along > floor else {
            return lifting ? fail(.liftedBeforeRecognized) : .none
        }
        if down < parameters.touches { return fail(.tooFewTouches(down, required: parameters.touches)) }
        let speed = best.along / seconds
        if speed < parameters.minSpeed { return fail(.swipeTooSlow(speed: speed, minimum: parameters.minSpeed)) }
        let straight = abs(best.across) <= best.along * maxSlope
        guard best.along > need, straight else {
            guard lifting else { return .none }
            let angle = angleOf(dy: abs(best.across), dx: best.along)
            return fail(straight ? .liftedBeforeRecognized : .offAxis(radians: angle, limit: parameters.maxAngle))
        }
        direction = best.direction
        state = .finished
        return .recognized(.swiped(best.direction, mm: best.along, speed: speed))
    }

    var deadline: Microseconds? {
        if case .tracking(let downAt) = state { return downAt + parameters.maxDuration }
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
        progress = DirectionProgress()
        direction = []
    }
}

/// Over one stroke: per direction the farthest offset along it so far (mm) and whether it
/// has been ruled out; when and where (offset, mm) the stroke left the jitter allowance.
private struct DirectionProgress {
    /// By the direction's bit (`Directions` has eight).
    private var farthest = SIMD8<Double>()
    var ruledOut: Directions = []
    private(set) var movedAt: Microseconds?
    private(set) var movedX = 0.0, movedY = 0.0

    mutating func moved(at time: Microseconds, _ x: Double, _ y: Double) {
        movedAt = time
        movedX = x
        movedY = y
    }

    subscript(_ d: Directions) -> Double {
        get { farthest[d.rawValue.trailingZeroBitCount] }
        set { farthest[d.rawValue.trailingZeroBitCount] = newValue }
    }
}

/// One frame's verdict on each allowed direction: rules directions out, and keeps the one
/// the offset leads in among those left.
private struct Judgement {
    let directions: Directions
    let jitter: Double
    /// The most the offset may move across a direction; nil once the stroke is complete
    /// (then only `maxAngle` judges it).
    let sidewaysLimit: Double?
    /// The largest angle between the offset and a direction; nil while the stroke is fast.
    let maxAngle: Double?
    /// tan(`maxAngle`).
    let maxSlope: Double
    /// The offset is beyond `jitter`: the rules apply.
    let moved: Bool
    private(set) var best: (direction: Directions, along: Double, across: Double)?
    /// Why a direction was ruled out in this frame: of several off axis, the nearest.
    private(set) var ruledOutReason: TraceReason?

    init(directions: Directions, jitter: Double, sidewaysLimit: Double?, maxAngle: Double?, maxSlope: Double, moved: Bool) {
        self.directions = directions
        self.jitter = jitter
        self.sidewaysLimit = sidewaysLimit
        self.maxAngle = maxAngle
        self.maxSlope = maxSlope
        self.moved = moved
    }

    mutating func consider(_ d: Directions, _ along: Double, _ across: Double, _ progress: inout DirectionProgress) {
        guard directions.contains(d), !progress.ruledOut.contains(d) else { return }
        let farthest = max(progress[d], along)
        progress[d] = farthest
        if moved {
            if farthest - along > jitter {
                return ruleOut(d, .swipeReversed(mm: farthest - along), &progress)
            }
            if let maxAngle, abs(across) > along * maxSlope {
                return ruleOut(d, .offAxis(radians: angleOf(dy: abs(across), dx: along), limit: maxAngle), &progress)
            }
            if let limit = sidewaysLimit, abs(across) > limit {
                return ruleOut(d, .swipeSideways(mm: abs(across), limit: limit), &progress)
            }
        }
        if best.map({ along > $0.along }) ?? true { best = (d, along, across) }
    }

    private mutating func ruleOut(_ d: Directions, _ reason: TraceReason, _ progress: inout DirectionProgress) {
        progress.ruledOut.insert(d)
        if case .offAxis(let angle, _) = reason, case .offAxis(let nearer, _)? = ruledOutReason, nearer <= angle { return }
        ruledOutReason = reason
    }
}
