import GestureCore

extension ConfigReport {
    /// Per view, what touch delivery takes from the application under it: touches never
    /// shown (`passthrough = false`), the longest time a new touch or a lift may be held
    /// back (latency the kiosk's users feel), and the gestures that cancel touches.
    static func deliveryLines(of configuration: Configuration) -> [String] {
        let model = configuration.model
        var lines = ["touch delivery (what the application under each view misses):"]
        for v in model.views.indices {
            lines.append("  \(model.views[v].name): " + describeDelivery(of: v, in: model))
        }
        let grabbing = configuration.devices.indices.filter { configuration.devices[$0].passthrough }
        if grabbing.isEmpty {
            lines.append(
                "  applied to no device: no [[device]] rule sets passthrough = true, so applications read the "
                    + "panels themselves (gesturectl replay --delivery shows what they would see)")
        }
        for d in grabbing {
            let cancel = configuration.devices[d].cancel
            let how =
                switch cancel {
                case .palm: "a cancelled touch becomes a palm, then lifts (libinput TOUCH_CANCEL; for compositors that honour it)"
                case .release:
                    "a cancelled touch lifts, which an application may take as a click: where a gesture must "
                        + "never click, hold touches back with delays_touches_began"
                }
            lines.append(
                "  device[\(d)]: passthrough: grabbed, applications read its virtual clone; cancel = \"\(cancel.rawValue)\": \(how)")
            // The health stage's hold comes before any gesture sees the touch: it adds to theirs.
            let hold = configuration.devices[d].health.hold
            if hold > 0 {
                lines.append(
                    "  device[\(d)]: every new touch is held \(Units.format(duration: hold)) by its health stage first "
                        + "(min_contact, hold = true): the application gets it that much later, on top of the holds above")
            }
        }
        return lines
    }

    private static func describeDelivery(of v: Int, in model: GestureModel) -> String {
        var ancestor: Int? = v
        while let a = ancestor {
            if !model.views[a].passthrough {
                return "passthrough = false" + (a == v ? "" : " (on \(model.views[a].name))")
                    + ": touches that begin here never reach the application"
            }
            ancestor = model.views[a].parent
        }
        // The gestures a touch hit-tested to v reaches: those on v and its ancestors.
        let reaching = model.gestures.indices.filter { g in
            guard model.gestures[g].enabled else { return false }
            var view: Int? = v
            while let current = view {
                if current == model.gestures[g].view { return true }
                view = model.views[current].parent
            }
            return false
        }
        var parts: [String] = []
        // An edge pan fails at once for a touch that lands away from its edges: it holds
        // only the touches that land near them.
        let delaying = reaching.filter { model.gestures[$0].delivery.delaysTouchesBegan }
        let began = delaying.filter { model.gestures[$0].type != .edgePan }.map { g in
            let (time, why) = beganHold(model.gestures[g])
            return Hold(gesture: model.gestures[g].name, time: time, why: why)
        }
        if let longest = longest(began) {
            parts.append("a new touch is held " + longest)
        }
        // Only near the edges a touch in this view can land by: the screen's edges, not the view's.
        for g in delaying where model.gestures[g].type == .edgePan {
            guard case .edgePan(let p) = model.gestures[g].parameters else { continue }
            let edges = EdgeReach.names(EdgeReach.reachable(p.edges, from: v, margin: p.edgeMargin, in: model))
            guard !edges.isEmpty else { continue }
            parts.append(
                "a new touch within \(Units.format(length: p.edgeMargin)) of the \(alternatives(edges)) "
                    + "edge of the screen is held (\(model.gestures[g].name): until the touch moves)")
        }
        let lifts = reaching.filter { model.gestures[$0].delivery.delaysTouchesEnded }.compactMap { g in
            liftHold(g, in: model).map { Hold(gesture: model.gestures[g].name, time: $0.0, why: $0.1) }
        }
        if let longest = longest(lifts) {
            parts.append("a lift is held " + longest)
        }
        // Continuous gestures cancel when they begin, discrete ones when they recognize.
        let cancelling = reaching.filter { model.gestures[$0].delivery.cancelsTouches }
        let beginning = cancelling.filter { model.gestures[$0].type.isContinuous }.map { model.gestures[$0].name }
        let recognizing = cancelling.filter { !model.gestures[$0].type.isContinuous }.map { model.gestures[$0].name }
        let when = [(beginning, "begins"), (recognizing, "recognizes")].filter { !$0.0.isEmpty }
        if !when.isEmpty {
            parts.append("touches are cancelled when " + when.map { alternatives($0.0) + " " + $0.1 }.joined(separator: ", or "))
        }
        return parts.isEmpty ? "passes every touch" : parts.joined(separator: "; ")
    }

    /// "a", "a or b", "a, b or c".
    private static func alternatives(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// How long a gesture that delays began touches may stay undecided with a finger
    /// down and still; nil: no bound (until the finger moves or lifts).
    private static func beganHold(_ spec: GestureSpec) -> (Microseconds?, String) {
        switch spec.parameters {
        case .longPress(let p): (p.minimumPressDuration, "until it recognizes or fails")
        case .swipe(let p): (p.maxDuration, "until it recognizes or fails")
        case .tap(let p) where p.taps > 1:
            (nil, "until the touch lifts or moves, then up to \(Units.format(duration: p.tapInterval)) for the next tap")
        case .tap: (nil, "until the touch lifts or moves")
        case .pan, .edgePan, .pinch, .rotation: (nil, "until the touch moves")
        }
    }

    /// How long a gesture waits after a lift for its next tap: a multi-tap tap, or a long
    /// press that wants taps first; nil: it is decided at the lift.
    private static func nextTapWait(_ spec: GestureSpec) -> Microseconds? {
        switch spec.parameters {
        case .tap(let p) where p.taps > 1: p.tapInterval
        case .longPress(let p) where p.taps > 0: p.tapInterval
        default: nil
        }
    }

    /// How long a gesture that delays lifts may stay undecided after the lift: while it
    /// waits for its next tap, or for such a gesture it requires to fail; nil: it is
    /// decided at the lift.
    private static func liftHold(_ g: Int, in model: GestureModel) -> (Microseconds, String)? {
        if let wait = nextTapWait(model.gestures[g]) { return (wait, "the next tap may come") }
        let waits = model.failureRequirements(of: g).compactMap { r in nextTapWait(model.gestures[r]).map { (r, $0) } }
        guard let (longest, wait) = waits.max(by: { $0.1 < $1.1 }) else { return nil }
        return (wait, "waits for \(model.gestures[longest].name) to fail")
    }

    /// One gesture's hold: how long (nil: no bound) and why.
    private struct Hold {
        var gesture: String
        var time: Microseconds?
        var why: String
    }

    /// "up to 300ms (name: why)" for the longest hold; "(name: why)" alone when one has no
    /// time bound, which outlasts every other.
    private static func longest(_ holds: [Hold]) -> String? {
        let unbounded = holds.first { $0.time == nil }
        guard let hold = unbounded ?? holds.max(by: { $0.time! < $1.time! }) else { return nil }
        let reason = "(\(hold.gesture): \(hold.why))"
        return hold.time.map { "up to \(Units.format(duration: $0)) " + reason } ?? reason
    }
}
