/// What a transform gesture measures over its contacts (pinch: span; rotation: angle),
/// re-baselined whenever the set of contacts changes so the value never jumps.
protocol TransformMeasure {
    /// The gesture type's parameters (its threshold).
    associatedtype Parameters
    init()
    /// Follows the contacts still down in this frame.
    mutating func follow(_ input: RecognizerInput)
    /// The reason to begin once the measure has passed the gesture's threshold, else nil.
    func beginReason(_ parameters: Parameters, _ geometry: DeviceGeometry) -> TraceReason?
    /// Makes the current value the reported zero (scale 1, rotation 0) at began.
    mutating func rebase()
    func write(into event: inout GestureEvent)
}

/// `UIPinchGestureRecognizer` and `UIRotationGestureRecognizer`: contacts whose `Measure`
/// passes its threshold begin; changed on every frame after; ended when all have lifted.
/// Continuous. States: docs/SEMANTICS.md, "Pinch and rotation".
final class TransformRecognizer<Measure: TransformMeasure>: Recognizer, ContinuousRecognizer {
    enum State: ContinuousState { case idle, tracking, active, finished }

    var state = State.idle
    private let parameters: Measure.Parameters
    private var value = Measure()
    var location = Location()

    init(_ parameters: Measure.Parameters) { self.parameters = parameters }

    func update(_ input: RecognizerInput) -> RecognizerVerdict {
        if state == .idle, input.began != 0 { state = .tracking }
        switch state {
        case .idle, .finished:
            return .none
        case .tracking:
            if input.live == 0 { return fail(.liftedBeforeRecognized) }
            value.follow(input)
            location.update(input, input.live)
            guard let reason = value.beginReason(parameters, input.geometry) else { return .none }
            return begin(reason)
        case .active:
            // Followed in the lifting frame too, for the release velocity.
            value.follow(input)
            return follow(input, live: input.live, mask: input.mask, ending: input.live == 0)
        }
    }

    func didBegin() { value.rebase() }

    var deadline: Microseconds? { nil }
    func expire(_ input: RecognizerInput) -> RecognizerVerdict { .none }

    func measure(into event: inout GestureEvent) {
        location.write(into: &event)
        value.write(into: &event)
    }

    func reset() {
        state = .idle
        value = Measure()
        location = Location()
    }
}

typealias PinchRecognizer = TransformRecognizer<PinchMeasure>
typealias RotationRecognizer = TransformRecognizer<RotationMeasure>

/// Pinch: the span (mean distance from the centroid). The scale multiplies the span's change
/// between frames with the same contacts; it begins after a `threshold` change of span.
struct PinchMeasure: TransformMeasure {
    private var set: ContactMask = 0
    private var lastSpan = 0.0, lastSpanMM = 0.0
    /// Span change in mm accumulated before began.
    private var spanTravelMM = 0.0
    /// The product of every frame's factor since the first frame; `scale` divides it by
    /// its value at began, so the velocity's samples stay continuous across `rebase`.
    private var totalScale = 1.0, scaleAtBegan = 1.0
    private var scale = 1.0, velocity = 0.0
    private var samples = VelocityEstimator()

    mutating func follow(_ input: RecognizerInput) {
        let live = input.live
        let span = input.contacts.span(live)
        defer {
            set = live
            lastSpan = span.px
            lastSpanMM = span.mm
            velocity = samples.velocity(at: input.time).a / scaleAtBegan
        }
        guard live == set, live.nonzeroBitCount >= 2, lastSpan > 0 else { return }
        spanTravelMM += span.mm - lastSpanMM
        totalScale *= span.px / lastSpan
        scale = totalScale / scaleAtBegan
        samples.record(input.time, totalScale)
    }

    func beginReason(_ parameters: PinchParameters, _ geometry: DeviceGeometry) -> TraceReason? {
        let limit = geometry.millimeters(parameters.threshold)
        return abs(spanTravelMM) > limit ? .scaleChanged(mm: abs(spanTravelMM), limit: limit) : nil
    }

    mutating func rebase() {
        scaleAtBegan = totalScale
        scale = 1
    }

    func write(into event: inout GestureEvent) {
        event.scale = scale
        event.velocity = velocity
    }
}

/// Rotation: the angle of the line through the two lowest contacts, clockwise positive,
/// summed frame to frame; it begins after `threshold` radians.
struct RotationMeasure: TransformMeasure {
    private var set: ContactMask = 0
    private var lastAngle: Double?
    /// Radians turned since the first frame; `rotation` counts from its value at began, so
    /// the velocity's samples stay continuous across `rebase`.
    private var totalRotation = 0.0, rotationAtBegan = 0.0
    private var rotation = 0.0, velocity = 0.0
    private var samples = VelocityEstimator()

    mutating func follow(_ input: RecognizerInput) {
        let live = input.live
        let angle = input.contacts.angle(live)
        defer {
            set = live
            lastAngle = angle
            velocity = samples.velocity(at: input.time).a
        }
        guard live == set, let angle, let lastAngle else { return }
        totalRotation += wrappedAngle(angle - lastAngle)
        rotation = totalRotation - rotationAtBegan
        samples.record(input.time, totalRotation)
    }

    func beginReason(_ parameters: RotationParameters, _ geometry: DeviceGeometry) -> TraceReason? {
        abs(rotation) > parameters.threshold ? .rotated(radians: abs(rotation), limit: parameters.threshold) : nil
    }

    mutating func rebase() {
        rotationAtBegan = totalRotation
        rotation = 0
    }

    func write(into event: inout GestureEvent) {
        event.rotation = rotation
        event.velocity = velocity
    }
}
