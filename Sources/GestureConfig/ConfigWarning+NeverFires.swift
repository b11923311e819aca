import GestureCore

/// Gestures that load but never fire: a swipe or an edge pan that a pan on the same touches
/// always beats, a second copy of a gesture, an edge pan whose view never reaches its edges.
extension ConfigWarning {
    /// A pan and a swipe (or an edge pan) on the same touches, with no failure requirement or
    /// simultaneity between them: the pan begins first and the other never fires
    /// (docs/CONFIG.md, "Pan and swipe on one view", "An edge swipe over a view that pans").
    static func panFirstWarnings(in model: GestureModel, locate: (ConfigKeyPath) -> ConfigLocation) -> [ConfigWarning] {
        var warnings: [ConfigWarning] = []
        for p in model.gestures.indices {
            guard model.gestures[p].enabled, case .pan(let pan) = model.gestures[p].parameters else { continue }
            for s in model.gestures.indices where model.gestures[s].enabled {
                let other = model.gestures[s]
                guard let (why, touches) = panBeginsFirst(pan, of: p, before: s, in: model), mayShareTouches(p, s, in: model),
                    !declared(p, s, in: model), !declared(s, p, in: model), !waits(p, on: s, in: model),
                    !waits(s, on: p, in: model)
                else { continue }
                let panName = model.gestures[p].name
                let fix =
                    other.type == .swipe
                    ? "(a quick flick is then the swipe, a slow drag the pan)"
                    : "(the edge pan fails at once for a touch away from its edge, so only drags from the edge wait)"
                warnings.append(
                    ConfigWarning(
                        at: ConfigKeyPath(keys: "gesture", other.name), locate: locate,
                        "'\(other.name)' (\(other.type)) and '\(panName)' (pan) receive the same touches and "
                            + "neither waits for the other: \(why), so '\(other.name)' never fires\(touches). Add "
                            + "require_to_fail = [\"\(other.name)\"] to [gesture.\(panName)] \(fix), or "
                            + "simultaneous_with to run both"))
            }
        }
        return warnings
    }

    /// Why the pan `p` begins before the swipe or edge pan `s` on a stroke both could take,
    /// and with how many touches when not with every count `s` takes (" with 2 or more
    /// touches"); nil when it does not (another type, touch counts that never meet, or `s` first).
    private static func panBeginsFirst(
        _ pan: PanParameters, of p: Int, before s: Int, in model: GestureModel
    ) -> (why: String, touches: String)? {
        let panTouches = touchRange(pan, model.gestures[p])
        switch model.gestures[s].parameters {
        case .swipe(let swipe):
            guard panTouches.contains(swipe.touches) else { return nil }
            // A pan with a threshold as long as the swipe's distance may lose: no warning.
            if let t = millimeters(pan.threshold), let d = millimeters(swipe.minDistance), t >= d { return nil }
            return (
                "the pan begins after \(Units.format(length: pan.threshold)), before a swipe of "
                    + "\(Units.format(length: swipe.minDistance)) is decided", ""
            )
        case .edgePan(let edge):
            let edgeTouches = touchRange(edge.pan, model.gestures[s])
            guard panTouches.overlaps(edgeTouches) else { return nil }
            // Equal thresholds: asked in one frame, the deeper view's gesture goes first.
            guard let t = millimeters(pan.threshold), let e = millimeters(edge.pan.threshold),
                t < e || (t == e && model.depth(of: model.gestures[p].view) > model.depth(of: model.gestures[s].view))
            else { return nil }
            let shared = panTouches.clamped(to: edgeTouches)
            return (
                "a drag from the edge begins the pan first (\(Units.format(length: pan.threshold)) against the "
                    + "edge pan's \(Units.format(length: edge.pan.threshold)))",
                shared == edgeTouches ? "" : " with " + touchCount(shared)
            )
        default:
            return nil
        }
    }

    /// "2 touches", "2 or more touches", "1 to 3 touches".
    private static func touchCount(_ range: ClosedRange<Int>) -> String {
        if range.upperBound >= ParameterKeys.maximumCount { return "\(range.lowerBound) or more touches" }
        if range.count == 1 { return range.lowerBound == 1 ? "1 touch" : "\(range.lowerBound) touches" }
        return "\(range.lowerBound) to \(range.upperBound) touches"
    }

    /// The contact counts a pan (or an edge pan) may begin with, `should_begin` included.
    private static func touchRange(_ pan: PanParameters, _ spec: GestureSpec) -> ClosedRange<Int> {
        let own = pan.minimumTouches...max(pan.minimumTouches, pan.maximumTouches)
        guard let asked = spec.shouldBegin.touches else { return own }
        return own.overlaps(asked) ? own.clamped(to: asked) : 0...0
    }

    /// A physical length in mm; nil for px, which compares with nothing physical.
    private static func millimeters(_ length: Length) -> Double? {
        switch length {
        case .millimeters(let mm): mm
        case .points(let pt): pt * GestureDefaults.pointInMillimeters
        case .pixels: nil
        }
    }

    /// Two gestures can receive one touch: their views are one chain, and their
    /// should_receive_touch and should_begin predicates do not rule each other out (tool
    /// types, device lists with no name in common, hit views, regions).
    static func mayShareTouches(_ a: Int, _ b: Int, in model: GestureModel) -> Bool {
        let ga = model.gestures[a]
        let gb = model.gestures[b]
        guard sameChain(ga.view, gb.view, in: model) else { return false }
        let (ra, rb) = (ga.shouldReceiveTouch, gb.shouldReceiveTouch)
        if !ra.toolTypes.isEmpty, !rb.toolTypes.isEmpty, ra.toolTypes.isDisjoint(with: rb.toolTypes) { return false }
        let devicesA = ra.devices + ga.shouldBegin.devices
        let devicesB = rb.devices + gb.shouldBegin.devices
        if !devicesA.isEmpty, !devicesB.isEmpty, Set(devicesA).isDisjoint(with: devicesB) { return false }
        let hitA = hitViews(of: a, in: model)
        if hitA.isDisjoint(with: hitViews(of: b, in: model)) { return false }
        // The deeper of the two views bounds where a shared touch lands.
        let deeper = model.depth(of: ga.view) >= model.depth(of: gb.view) ? ga.view : gb.view
        var area: Rect? = model.views[deeper].frame
        for region in [ra.region, rb.region, ga.shouldBegin.region, gb.shouldBegin.region].compactMap({ $0 }) {
            area = area.flatMap { intersection($0, region) }
        }
        return area != nil
    }

    /// The hit views whose touches reach gesture `g`: its view's subtree, narrowed by
    /// should_receive_touch's `views`.
    private static func hitViews(of g: Int, in model: GestureModel) -> Set<Int> {
        let spec = model.gestures[g]
        return Set(
            model.views.indices.filter { v in
                sameChain(spec.view, v, in: model) && model.depth(of: v) >= model.depth(of: spec.view)
                    && (spec.shouldReceiveTouch.hitViews.isEmpty || spec.shouldReceiveTouch.hitViews.contains(v))
            })
    }

    private static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let x = max(a.x, b.x)
        let y = max(a.y, b.y)
        let right = min(a.x + a.width, b.x + b.width)
        let bottom = min(a.y + a.height, b.y + b.height)
        return right > x && bottom > y ? Rect(x: x, y: y, width: right - x, height: bottom - y) : nil
    }

    /// Two enabled gestures of one type on one view with the same parameters, predicates and
    /// failure requirements, and nothing that lets both run: the one asked first (the
    /// engine's order: by name) takes every touch, the other never fires.
    static func duplicateWarnings(in model: GestureModel, locate: (ConfigKeyPath) -> ConfigLocation) -> [ConfigWarning] {
        var warnings: [ConfigWarning] = []
        for a in model.gestures.indices {
            for b in model.gestures.indices {
                let (first, second) = (model.gestures[a], model.gestures[b])
                guard first.name < second.name, first.enabled, second.enabled, first.view == second.view,
                    first.parameters == second.parameters, first.shouldBegin == second.shouldBegin,
                    first.shouldReceiveTouch == second.shouldReceiveTouch,
                    Set(model.failureRequirements(of: a)) == Set(model.failureRequirements(of: b)),
                    !declared(a, b, in: model), !declared(b, a, in: model)
                else { continue }
                warnings.append(
                    ConfigWarning(
                        at: ConfigKeyPath(keys: "gesture", second.name), locate: locate,
                        "'\(second.name)' is the same \(second.type) as '\(first.name)' on view "
                            + "'\(model.views[second.view].name)' (same parameters, predicates and failure "
                            + "requirements): '\(first.name)' is asked first and takes the touches, so "
                            + "'\(second.name)' never fires. Move its actions to [gesture.\(first.name)], or add "
                            + "simultaneous_with = [\"\(first.name)\"] to run both"))
            }
        }
        return warnings
    }

    /// Two long presses on the same touches (same touch and tap counts) with nothing declared
    /// between them: the shorter `min_duration` is recognized first and prevents the longer,
    /// which never fires, unless it allows more movement than the shorter (a press that drifts
    /// fails the shorter only) or the shorter waits for it.
    static func longerPressWarnings(in model: GestureModel, locate: (ConfigKeyPath) -> ConfigLocation) -> [ConfigWarning] {
        var warnings: [ConfigWarning] = []
        for s in model.gestures.indices {
            guard model.gestures[s].enabled, case .longPress(let short) = model.gestures[s].parameters else { continue }
            for l in model.gestures.indices where l != s && model.gestures[l].enabled {
                guard case .longPress(let long) = model.gestures[l].parameters, long.touches == short.touches,
                    long.taps == short.taps, long.minimumPressDuration > short.minimumPressDuration,
                    movesNoFurther(long.allowableMovement, than: short.allowableMovement), mayShareTouches(s, l, in: model),
                    !declared(s, l, in: model), !declared(l, s, in: model), !waits(s, on: l, in: model)
                else { continue }
                let (shorter, longer) = (model.gestures[s].name, model.gestures[l].name)
                warnings.append(
                    ConfigWarning(
                        at: ConfigKeyPath(keys: "gesture", longer, "min_duration"), locate: locate,
                        "'\(longer)' (\(Units.format(duration: long.minimumPressDuration))) and '\(shorter)' "
                            + "(\(Units.format(duration: short.minimumPressDuration))) are long presses of the same "
                            + "\(short.touches == 1 ? "touch" : "\(short.touches) touches"): '\(shorter)' is recognized first and "
                            + "prevents '\(longer)', which never fires. Give them different touch counts, add "
                            + "simultaneous_with = [\"\(shorter)\"] to [gesture.\(longer)] to run both, or remove one"))
            }
        }
        return warnings
    }

    /// `a` allows no more movement than `b`: equal, or both physical and `a` no longer.
    private static func movesNoFurther(_ a: Length, than b: Length) -> Bool {
        if a == b { return true }
        guard let ma = millimeters(a), let mb = millimeters(b) else { return false }
        return ma <= mb
    }

    /// An edge pan whose view lies too far from some of its edges for a touch in it to land
    /// within `edge_margin` of them: it never begins from those edges.
    static func unreachableEdgeWarnings(
        in model: GestureModel, locate: (ConfigKeyPath) -> ConfigLocation
    ) -> [ConfigWarning] {
        model.gestures.compactMap { spec in
            guard spec.enabled, case .edgePan(let p) = spec.parameters else { return nil }
            let reached = EdgeReach.reachable(p.edges, from: spec.view, margin: p.edgeMargin, in: model)
            let missed = p.edges.subtracting(reached)
            guard !missed.isEmpty else { return nil }
            let view = model.views[spec.view]
            let distances = ParameterKeys.edgeNames.filter { missed.contains($0.1) }.map { name, edge in
                let extent = edge == .left || edge == .right ? model.screen.width : model.screen.height
                return "\(Units.format(EdgeReach.distance(to: edge, from: spec.view, in: model))) px from the "
                    + "\(name) edge (edge_margin \(Units.format(length: p.edgeMargin)) reaches "
                    + "\(Units.format(EdgeReach.farthest(p.edgeMargin, extent: extent).rounded())) px at most)"
            }
            let touching = EdgeReach.names(EdgeReach.touching(spec.view, in: model))
            let instead =
                touching.isEmpty
                ? "attach it to a view at the screen's edge"
                : "view '\(view.name)' lies against the "
                    + touching.joined(separator: ", ") + " edge" + (touching.count == 1 ? "" : "s")
            return ConfigWarning(
                at: ConfigKeyPath(keys: "gesture", spec.name, "edges"), locate: locate,
                "edges are the screen's, and a touch reaches '\(spec.name)' only inside view "
                    + "'\(view.name)' (\(Units.format(rect: view.frame))), which lies "
                    + distances.joined(separator: " and ") + ": '\(spec.name)' never begins from "
                    + (reached.isEmpty ? "any of its edges, so it never fires" : EdgeReach.names(missed).joined(separator: ", "))
                    + "; \(instead)")
        }
    }
}
