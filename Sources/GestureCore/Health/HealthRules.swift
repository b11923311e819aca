/// The health stage's rules on one device, one home each: a small type with the rule's
/// thresholds in mm and its predicates, nil when the rule is off (then it costs nothing).
/// `TouchHealth` runs them in chains by when they fire, each chain asking its rules in
/// order as libinput's palm chain does (`tp_palm_detect_*` in evdev-mt-touchpad.c):
///
/// - **landing**, a contact's first frame (`TouchHealth.land`): masks, masked spots, then
///   the holds (bezel touches, ghosts);
/// - **sample**, each later report of a contact (`TouchHealth.sample`): jumps, then at a
///   lift bezel taps and ghosts;
/// - **frame**, the contacts of a frame together (`TouchHealth.judgeFrame`): aligned and
///   far-apart bursts;
/// - **deadline** (`TouchHealth.timers`, `runTimers`, `earliestDeadline`): a ghost hold's
///   end, a held jump's gap, stuck contacts; the panel's noisy and silent states and spot
///   releases (those rules keep their own state: `FilterRate`, `SpotTracker`).
///
/// A new rule: its type here, its `HealthRule` case (the name of its config key's counts,
/// `status` and the metrics), its `TouchHealthSettings` field, and a line in each chain it
/// joins.
struct HealthRules {
    var mask: MaskRule?
    var edgeHold: EdgeHoldRule?
    var ghost: GhostRule?
    var aligned: AlignedRule?
    var farApart: FarApartRule?
    var jump: JumpRule?
    var stuck: StuckRule?
    var silent: SilentRule?
    /// `still_radius` in mm.
    var still: Double
    /// Some rule has a timer per contact (the deadline chain's `timers`).
    var timesContacts: Bool { ghost != nil || jump != nil || stuck != nil }
    /// Some rule asks whether a contact stayed still since it went down: ghosts, far-apart
    /// bursts, spots, bezel touches. Otherwise that is not tracked.
    var tracksStill: Bool

    init(_ s: TouchHealthSettings, _ g: DeviceGeometry) {
        still = g.millimeters(s.stillRadius)
        mask = s.masks.isEmpty ? nil : MaskRule(frames: s.masks)
        edgeHold = s.edgeHold.map { EdgeHoldRule(distance: g.millimeters($0)) }
        ghost = s.minContact > 0 ? GhostRule(minContact: s.minContact, holds: s.hold > 0) : nil
        aligned = s.aligned.map { AlignedRule(distance: g.millimeters($0)) }
        farApart = s.farApart.map { FarApartRule(distance: g.millimeters($0), within: s.farApartWithin) }
        jump = s.jump.map { JumpRule(distance: g.millimeters($0)) }
        stuck = s.stuckAfter > 0 ? StuckRule(after: s.stuckAfter) : nil
        silent = s.silentAfter > 0 ? SilentRule(after: s.silentAfter) : nil
        tracksStill = s.minContact > 0 || s.farApart != nil || s.spot != nil || s.edgeHold != nil
    }
}

/// Held or shown: not filtered yet.
extension TouchHealth.Watched {
    var isJudged: Bool { fate == .held || fate == .shown }
}

/// `mask` (landing): a contact that goes down in one of these screen frames (px) is filtered.
struct MaskRule {
    let frames: [Rect]

    func covers(_ w: TouchHealth.Watched) -> Bool {
        for m in 0..<frames.count where frames[m].contains(x: w.px, y: w.py) { return true }
        return false
    }
}

/// `edge_hold`: a contact landing within `distance` of the panel's border is held (landing)
/// until it moves, then shown from where it landed; one that lifts still is a bezel tap,
/// filtered as `edge` (sample).
struct EdgeHoldRule {
    let distance: Double

    func holds(_ w: TouchHealth.Watched, on geometry: DeviceGeometry) -> Bool {
        geometry.borderDistanceMM(x: w.px, y: w.py) <= distance
    }

    func isBezelTap(_ w: TouchHealth.Watched, lifting phase: TouchPhase) -> Bool {
        phase == .ended && w.atEdge && w.still
    }
}

/// `min_contact` (with `hold`): a still contact that lifts sooner than `minContact` is a
/// ghost (sample). With `holds`, a new contact is held (landing) until then (deadline) or
/// until it moves.
struct GhostRule {
    let minContact: Microseconds
    let holds: Bool

    func isGhost(_ w: TouchHealth.Watched, lifting phase: TouchPhase, at time: Microseconds) -> Bool {
        phase == .ended && w.still && time - w.downAt < minContact
    }

    /// When a contact held for it is shown (one held at the border waits for a move).
    func showsAt(_ w: TouchHealth.Watched) -> Microseconds? {
        w.fate == .held && !w.atEdge ? w.downAt + minContact : nil
    }
}

/// `aligned` (frame): a new contact within `distance` along the screen's x of another
/// contact down is noise (IR frames' ghosts on a finger's row or column).
struct AlignedRule {
    let distance: Double

    func isAligned(_ i: Int, in watched: TouchHealth.Table) -> Bool {
        guard watched[i].fresh && watched[i].isJudged else { return false }
        for j in 0..<watched.count where j != i && !watched[j].ending && abs(watched[j].x - watched[i].x) <= distance {
            return true
        }
        return false
    }
}

/// `far_apart` (frame): still contacts down for at most `within`, the nearest other one
/// further than `distance`, are all noise.
struct FarApartRule {
    let distance: Double
    let within: Microseconds

    /// The contacts to filter, as bits: each judged against the same set.
    func marked(_ watched: TouchHealth.Table, at time: Microseconds) -> UInt64 {
        var marked: UInt64 = 0
        for i in 0..<watched.count where isTap(watched[i], at: time) {
            var nearest = Double.infinity
            for j in 0..<watched.count where j != i && isTap(watched[j], at: time) {
                nearest = min(nearest, length(watched[j].x - watched[i].x, watched[j].y - watched[i].y))
            }
            if nearest.isFinite && nearest > distance { marked |= 1 << UInt64(i) }
        }
        return marked
    }

    private func isTap(_ w: TouchHealth.Watched, at time: Microseconds) -> Bool {
        w.isJudged && w.still && time - w.downAt <= within
    }
}

/// `jump` (sample): a shown contact that moves further than `distance` in one frame, at most
/// `gap` after its previous one, is held a frame; its next report back within `distance`
/// makes the jumped one an outlier, elsewhere (or none within `gap`: deadline) it is split.
struct JumpRule {
    let distance: Double
    static var gap: Microseconds { TouchHealth.jumpGap }

    func isJump(_ w: TouchHealth.Watched, to mx: Double, _ my: Double, at time: Microseconds, after lastAt: Microseconds) -> Bool {
        time - lastAt <= Self.gap && length(mx - w.x, my - w.y) > distance
    }

    /// The report after a jump came back near where the contact was.
    func isBack(_ w: TouchHealth.Watched, to mx: Double, _ my: Double) -> Bool {
        length(mx - w.x, my - w.y) <= distance
    }

    /// When a held jump with no report since is split.
    func splitsAt(_ w: TouchHealth.Watched) -> Microseconds? {
        w.jumpHeld ? w.jumpedAt + Self.gap : nil
    }
}

/// `stuck_after` (deadline): a shown contact still for `after` (within `still_radius` of
/// where it last rested, its anchor, kept only for this rule) is cancelled.
struct StuckRule {
    let after: Microseconds

    func dueAt(_ w: TouchHealth.Watched) -> Microseconds { w.stillSince + after }
}

/// `silent_after` (deadline): the panel is silent after `after` without a frame.
struct SilentRule {
    let after: Microseconds
}
