/// `UIPanGestureRecognizer` and, with `EdgePanParameters`, `UIScreenEdgePanGestureRecognizer`:
/// begins once the centroid of `minimumTouches...maximumTouches` contacts has moved more than
/// `threshold`; an edge pan's first contact must go down within `edgeMargin` of one of its
/// `edges`. Reports translation since began and velocity. Continuous.
///
/// As in UIKit, more than `maximumTouches` contacts before it began fail it; after it began,
/// the contacts beyond the maximum are ignored for the rest of the gesture. States:
/// docs/SEMANTICS.md, "Pan and edge pan".
final class PanRecognizer: Recognizer, ContinuousRecognizer {
    enum State: ContinuousState { case idle, tracking, active, finished }

    var state = State.idle
    private let parameters: PanParameters
    /// An edge pan's parameters (its `pan` part is `parameters`); nil for a plain pan.
    private let edgePan: EdgePanParameters?
    private var edge: Edges = []
    /// Contacts that went down after began while it already held `maximumTouches`.
    private var ignored: ContactMask = 0
    private var tracker = CentroidTracker()
    var location = Location()

    init(_ parameters: PanParameters) {
        self.parameters = parameters
        edgePan = nil
    }

    init(_ parameters: EdgePanParameters) {
        self.parameters = parameters.pan
        edgePan = parameters
    }

    func update(_ input: RecognizerInput) -> RecognizerVerdict {
        if state == .idle, input.began != 0 {
            if let edgePan {
                edge = startingEdge(input, edgePan)
                if edge.isEmpty { return fail(.notAtEdge) }
            }
            state = .tracking
        }
        if state == .active { ignoreBeyondMaximum(input) }
        let mask = input.mask & ~ignored
        let live = input.live & ~ignored
        // In the frame that lifts the last contacts, their final positions still count.
        tracker.track(input.contacts, live != 0 ? live : mask, at: input.time)
        switch state {
        case .idle, .finished:
            return .none
        case .tracking:
            if input.live == 0 { return fail(.liftedBeforeRecognized) }
            location.update(input, input.live)
            let n = input.liveCount
            if n > parameters.maximumTouches { return fail(.tooManyTouches(n, allowed: parameters.maximumTouches)) }
            let limit = input.geometry.millimeters(parameters.threshold)
            let moved = tracker.distanceMM
            guard n >= parameters.minimumTouches, moved > limit else { return .none }
            return begin(.movedEnough(mm: moved, limit: limit))
        case .active:
            let ending = live == 0 || live.nonzeroBitCount < parameters.minimumTouches
            // Only the ignored contacts changed: nothing to report.
            if !ending, input.contacts.touched & mask == 0 { return .none }
            return follow(input, live: live, mask: mask, ending: ending)
        }
    }

    /// Adds the contacts that went down in this frame beyond `maximumTouches` to `ignored`,
    /// lowest slot first among those of one frame.
    private func ignoreBeyondMaximum(_ input: RecognizerInput) {
        let held = (input.live & ~input.began & ~ignored).nonzeroBitCount
        var room = parameters.maximumTouches - held
        input.began.forEachIndex { i in
            if room > 0 { room -= 1 } else { ignored |= 1 << ContactMask(i) }
        }
    }

    /// The edge of the screen within `edgeMargin` of where the first contact went down
    /// (a contact the health stage held at the border may have moved in its first frame),
    /// among `edges`.
    private func startingEdge(_ input: RecognizerInput, _ parameters: EdgePanParameters) -> Edges {
        let i = input.began.trailingZeroBitCount
        let c = input.contacts.slots[i]
        let (x, y) = (c.startX, c.startY)
        let margin = input.geometry.millimeters(parameters.edgeMargin)
        let g = input.geometry
        // Checked in a fixed order (left, right, top, bottom) so a corner is deterministic.
        if parameters.edges.contains(.left), x * g.mmPerPixelX <= margin { return .left }
        if parameters.edges.contains(.right), (input.screen.width - x) * g.mmPerPixelX <= margin { return .right }
        if parameters.edges.contains(.top), y * g.mmPerPixelY <= margin { return .top }
        if parameters.edges.contains(.bottom), (input.screen.height - y) * g.mmPerPixelY <= margin { return .bottom }
        return []
    }

    func didBegin() { tracker.rebase() }

    var deadline: Microseconds? { nil }
    func expire(_ input: RecognizerInput) -> RecognizerVerdict { .none }

    func measure(into event: inout GestureEvent) {
        location.write(into: &event)
        event.translationX = tracker.translationX
        event.translationY = tracker.translationY
        event.velocityX = tracker.velocityX
        event.velocityY = tracker.velocityY
        event.edge = edge
    }

    func reset() {
        state = .idle
        edge = []
        ignored = 0
        tracker = CentroidTracker()
        location = Location()
    }
}
