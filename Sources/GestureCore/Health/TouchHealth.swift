/// The health stage of one device: between its normalizer and the engine (and the
/// application), it keeps the panel's own faults from both and says how the panel is doing.
///
/// Frames on the screen (px and mm) in, filtered frames out (`output`): contacts removed before anyone saw them,
/// contacts cancelled after they were shown, new contacts held back and shown later, a
/// jumped contact held for a frame, then its report dropped or the contact split into a
/// cancel and a new contact with a fresh id. Rules, each in mm and µs
/// (`TouchHealthSettings`, docs/CONFIG.md "Touch health"): masks, ghosts, far-apart and
/// aligned bursts, recurring spots, jumps, bezel touches, stuck contacts, each a small type
/// of `HealthRules` that the chains here (landing, sample, frame, deadline) run in order;
/// and the panel's state (`ok`, `noisy`, `silent`) with the reason of each change
/// (`drainNotices`).
///
/// What it guarantees downstream: a filtered contact never appears after it was filtered;
/// every contact shown ends exactly once (ended or cancelled) as long as its input does;
/// ids stay unique (a split's new id comes from the caller's id source, the normalizer's).
///
/// Pure: time comes with frames and `advance(to:)`. Allocates nothing per frame: its tables
/// are allocated when it is made (the buffers drained by the caller keep their capacity).
///
/// It costs what its rules need (docs/BENCHMARKS.md, "The health stage's own cost"): the
/// earliest deadline is worked out once per call, so a frame before it runs no timer and
/// `nextDeadline` is a read; a moving contact costs a distance check, a still one its
/// deadline; the stillness since touch-down is tracked only for the rules that ask; a frame
/// whose contacts all go on as they came is not copied (`process`).
public final class TouchHealth {
    public let device: DeviceID
    public let settings: TouchHealthSettings
    public let geometry: DeviceGeometry
    /// The frame the last `handle` or `advance` produced (valid until the next call).
    @exclusivity(unchecked) public private(set) var output: ScreenFrame
    @exclusivity(unchecked) public private(set) var state = HealthState.ok
    @exclusivity(unchecked) public private(set) var counts = HealthCounts()
    /// Time of the last frame (the stage's start before the first one).
    @exclusivity(unchecked) public private(set) var lastFrame: Microseconds
    /// Time of the last output that carried a contact the stage let through (not a cancel):
    /// a person's touch, where `lastFrame` also counts a panel's noise. nil before the first.
    @exclusivity(unchecked) public private(set) var lastTouch: Microseconds?
    /// Record each filtered contact for `drainFiltered` (replay's `filtered` lines).
    public var recordsFiltered = false

    /// Contacts watched at once: the most slots a device may have. Beyond it a contact
    /// passes unwatched, counted in `unwatched`.
    public static let capacity = 64
    @exclusivity(unchecked) public private(set) var unwatched = 0
    /// A move is judged a jump only when it came at most this long after the contact's
    /// previous frame (libinput's bound): a panel that reports sparsely may show a real
    /// fast stroke as one long step after a gap.
    public static let jumpGap: Microseconds = 25_000

    /// `capacity` contacts, allocated once: reached through a pointer, a field written in
    /// place costs no uniqueness check of an array (about a fifth of the stage's frame).
    private let watched: UnsafeMutablePointer<Watched>
    @exclusivity(unchecked) private var watchedCount = 0
    /// Where `index(of:)` last found a contact.
    @exclusivity(unchecked) private var lastFound = -1
    /// The earliest time `advance` has work (`nextDeadline`), as of the last call.
    @exclusivity(unchecked) private var deadline: Microseconds?
    private let rules: HealthRules
    @exclusivity(unchecked) private var spots: SpotTracker?
    @exclusivity(unchecked) private var rate: FilterRate?
    @exclusivity(unchecked) private var frameRate = FrameRate()
    /// When a noisy panel is ok again, unless more noise comes first.
    @exclusivity(unchecked) private var okAt: Microseconds = .max
    @exclusivity(unchecked) private var notices: [HealthNotice] = []
    /// The contacts of the frame being handled (valid during `handle` only).
    @exclusivity(unchecked) private var input = UnsafeBufferPointer<ScreenContact>(start: nil, count: 0)
    /// While true, `output` is the first `passed` contacts of `input`, not written yet: a
    /// frame whose contacts all go on as they came is never copied (`process`). Whatever
    /// else is written out writes these first (`put`), so the order is the same.
    @exclusivity(unchecked) private var mirrors = false
    @exclusivity(unchecked) private var passed = 0
    /// Some contact is new, lifted or shown by a timer this frame: `finishFrame` has work.
    @exclusivity(unchecked) private var finishes = false
    @exclusivity(unchecked) private var filtered: [FilteredContact] = []

    /// `since`: when the device was attached (silence counts from there).
    public init(device: DeviceID, settings: TouchHealthSettings, geometry: DeviceGeometry, since: Microseconds = 0) {
        self.device = device
        self.settings = settings
        self.geometry = geometry
        lastFrame = since
        rules = HealthRules(settings, geometry)
        watched = .allocate(capacity: Self.capacity)
        watched.initialize(repeating: Watched(), count: Self.capacity)
        output = ScreenFrame(device: device, time: since, contacts: [])
        // A split writes two contacts for one; as many as a frame of the path holds, whose
        // buffer `moveOutput` swaps with this one.
        output.contacts.reserveCapacity(3 * Self.capacity)
        notices.reserveCapacity(16)
        filtered.reserveCapacity(64)
        spots = settings.spot.map {
            SpotTracker(count: $0.count, radiusMM: geometry.millimeters($0.radius), within: $0.within, release: $0.release)
        }
        rate = settings.noisy.map { FilterRate(perMinute: $0.perMinute) }
        deadline = earliestDeadline()
    }

    deinit {
        watched.deinitialize(count: Self.capacity)
        watched.deallocate()
    }

    // MARK: frames and time

    /// Takes one frame of the device; `output` then holds what goes on (timers due by the
    /// frame's time included). Returns false when nothing goes on. `freshID` gives the id of
    /// a contact split off a jump from the device's contact it is given: one the device's
    /// own contacts never use.
    @discardableResult
    public func handle(_ frame: ScreenFrame, freshID: (_ continuing: Int32) -> Int32) -> Bool {
        frame.contacts.withUnsafeBufferPointer { judge(frame.time, $0, writingOut: true, freshID: freshID) }
        return !output.contacts.isEmpty
    }

    /// `handle` in place: `frame` is left as it is when every contact goes on as it came (the
    /// common frame: nothing copied), else it gets `output`'s contacts (`moveOutput`).
    public func process(_ frame: inout ScreenFrame, freshID: (_ continuing: Int32) -> Int32) {
        frame.contacts.withUnsafeBufferPointer { judge(frame.time, $0, writingOut: false, freshID: freshID) }
        if mirrors {
            mirrors = false
        } else {
            moveOutput(into: &frame)
        }
    }

    /// `writingOut`: `output` is written even when every contact passed (`handle`).
    private func judge(
        _ time: Microseconds, _ contacts: UnsafeBufferPointer<ScreenContact>, writingOut: Bool, freshID: (Int32) -> Int32
    ) {
        startOutput(at: time)
        input = contacts
        mirrors = true
        passed = 0
        if let deadline, deadline <= time { runTimers(upTo: time, freshID: freshID) }
        if state == .silent { change(to: .ok, .frameAgain, at: time) }
        lastFrame = time
        frameRate.record(time)
        for k in 0..<contacts.count { sample(contacts[k], k, at: time, freshID: freshID) }
        judgeFrame(at: time)
        finishFrame()
        if mirrors, writingOut || passed != contacts.count { writeOut() }
        noteTouch()
        input = UnsafeBufferPointer(start: nil, count: 0)
        deadline = earliestDeadline()
    }

    /// Runs the timers due by `time` (held contacts shown, stuck ones cancelled, spots
    /// released, state changes); `output` then holds the contacts that changed, at `time`.
    /// Call it at `nextDeadline` for exact times: a later time does all that is due at once.
    /// `freshID` as for `handle` (a jump held a frame that did not come back is split here).
    @discardableResult
    public func advance(to time: Microseconds, freshID: (_ continuing: Int32) -> Int32) -> Bool {
        startOutput(at: time)
        runTimers(upTo: time, freshID: freshID)
        finishFrame()
        noteTouch()
        deadline = earliestDeadline()
        return !output.contacts.isEmpty
    }

    /// The earliest time `advance` has work, or nil.
    public var nextDeadline: Microseconds? { deadline }

    /// Hands the last call's output contacts to `frame` by swapping their buffers (no copy);
    /// `output` then holds the frame's old contacts, until the next call.
    public func moveOutput(into frame: inout ScreenFrame) {
        frame.device = output.device
        frame.time = output.time
        swap(&frame.contacts, &output.contacts)
    }

    /// What `nextDeadline` says after a call: every timer's due time, the earliest.
    private func earliestDeadline() -> Microseconds? {
        var earliest = Microseconds.max
        if let stuck = rules.stuck, rules.ghost == nil, rules.jump == nil {
            // The defaults: a shown contact's one timer, due `after` from its rest's start.
            var rest = Microseconds.max
            for i in 0..<watchedCount where watched[i].fate.isShown { rest = min(rest, watched[i].stillSince) }
            if rest != .max { earliest = rest + stuck.after }
        } else if rules.timesContacts {
            for i in 0..<watchedCount {
                let t = timers(i)
                if let show = t.show, show < earliest { earliest = show }
                if let split = t.split, split < earliest { earliest = split }
                if let stuck = t.stuck, stuck < earliest { earliest = stuck }
            }
        }
        if state == .noisy { earliest = min(earliest, okAt) }
        if let silent = rules.silent, state != .silent { earliest = min(earliest, lastFrame + silent.after) }
        if let release = spots?.nextRelease { earliest = min(earliest, release) }
        return earliest == .max ? nil : earliest
    }

    /// Whether a drain would move anything (notices, or filtered contacts when recorded).
    public var hasUndrained: Bool { !notices.isEmpty || !filtered.isEmpty }

    /// Moves the state changes and spot notices since the last drain into `into`.
    public func drainNotices(into: inout [HealthNotice]) {
        into.append(contentsOf: notices)
        notices.removeAll(keepingCapacity: true)
    }

    /// Moves the contacts filtered since the last drain (when `recordsFiltered`) into `into`.
    public func drainFiltered(into: inout [FilteredContact]) {
        into.append(contentsOf: filtered)
        filtered.removeAll(keepingCapacity: true)
    }

    /// Contacts down now, and how many of them are held back.
    public var watchedContacts: (down: Int, held: Int) {
        var held = 0
        for i in 0..<watchedCount where watched[i].fate == .held { held += 1 }
        return (watchedCount, held)
    }

    /// Spots masked now.
    public var maskedSpots: Int { spots?.activeCount ?? 0 }

    /// The spots masked now, with when each was masked and when it is released unless a
    /// contact lands on it before (for `status`; allocates).
    public var maskedSpotList: [MaskedSpot] {
        guard let spots else { return [] }
        return spots.active.map { MaskedSpot(x: $0.px, y: $0.py, since: $0.since, until: $0.lastHit + spots.release) }
    }

    /// Frames the panel sent within the second before `now` (the caller's clock).
    public func framesPerSecond(at now: Microseconds) -> Double { frameRate.perSecond(at: now) }

    private func noteTouch() {
        if mirrors {
            for k in 0..<passed where input[k].phase != .cancelled {
                lastTouch = output.time
                return
            }
            return
        }
        for i in 0..<output.contacts.count where output.contacts[i].phase != .cancelled {
            lastTouch = output.time
            return
        }
    }
}

// MARK: - contacts

extension TouchHealth {
    /// What the stage decided for one contact.
    enum Fate: Equatable {
        /// Not shown yet: judged when `minContact` has passed or it moves.
        case held
        case shown
        /// Filtered before anyone saw it: ignored until it lifts.
        case dropped(HealthRule)
        /// Shown, then cancelled: ignored until it lifts.
        case cancelled(HealthRule)

        var isShown: Bool {
            if case .shown = self { return true }
            return false
        }
    }

    /// One contact of the device from its first frame to its last.
    struct Watched {
        var id: Int32 = 0
        /// The id it goes on with: its own, or a split's fresh one.
        var outputID: Int32 = 0
        var fate = Fate.shown
        var downAt: Microseconds = 0
        /// mm from the screen's corner: where it went down, where it is, and where it has
        /// been still since `stillSince`.
        var startX = 0.0, startY = 0.0
        var x = 0.0, y = 0.0
        var anchorX = 0.0, anchorY = 0.0
        var stillSince: Microseconds = 0
        /// The time of its last frame.
        var lastAt: Microseconds = 0
        /// Screen px, for masks and reports.
        var px = 0.0, py = 0.0
        /// Within the still radius of where it went down, so far.
        var still = true
        /// Went down in the frame being judged (the burst rules look at these).
        var fresh = false
        /// Lifted in the frame being judged: forgotten at its end.
        var ending = false
        /// Shown by a timer of this frame, its `began` not written yet.
        var pendingBegan = false
        /// Held because it landed on the panel's border (`edge_hold`), shown from `landed`.
        var atEdge = false
        /// Its last report jumped (`jump`): held a frame, until `jumpedAt + jumpGap` at most.
        var jumpHeld = false
        var jumpedAt: Microseconds = 0
        /// The contact as the device last reported it, the report before (`jump` only), as
        /// it went down, as it was shown before a jump held it, and as the jumped report put it.
        var last = ScreenContact(id: 0, phase: .began, x: 0, y: 0, mmX: 0, mmY: 0)
        var previous = ScreenContact(id: 0, phase: .began, x: 0, y: 0, mmX: 0, mmY: 0)
        var landed = ScreenContact(id: 0, phase: .began, x: 0, y: 0, mmX: 0, mmY: 0)
        var beforeJump = ScreenContact(id: 0, phase: .began, x: 0, y: 0, mmX: 0, mmY: 0)
        var jumped = ScreenContact(id: 0, phase: .began, x: 0, y: 0, mmX: 0, mmY: 0)
    }

    /// The contacts watched, as the frame rules read them.
    struct Table {
        let base: UnsafeMutablePointer<Watched>
        let count: Int
        subscript(i: Int) -> Watched { unsafeAddress { UnsafePointer(base + i) } }
    }

    private func startOutput(at time: Microseconds) {
        output.time = time
        if !output.contacts.isEmpty { output.contacts.removeAll(keepingCapacity: true) }
    }

    /// Writes the contacts passed so far into `output`: from now on it is written as it goes.
    private func writeOut() {
        guard mirrors else { return }
        mirrors = false
        for k in 0..<passed { output.contacts.append(input[k]) }
    }

    /// Appends to `output` (written out first).
    private func put(_ contact: ScreenContact) {
        writeOut()
        output.contacts.append(contact)
    }

    /// A panel lists its contacts in the same order frame after frame: the search starts
    /// after the last one found, so it usually takes one comparison.
    @inline(__always) private func index(of id: Int32) -> Int? {
        var i = lastFound + 1
        for _ in 0..<watchedCount {
            if i >= watchedCount { i = 0 }
            if watched[i].id == id {
                lastFound = i
                return i
            }
            i += 1
        }
        return nil
    }

    /// The sample chain: a report of a contact, judged by the rules that look at each one
    /// (a contact's first report goes to the landing chain).
    private func sample(_ contact: ScreenContact, _ k: Int, at time: Microseconds, freshID: (Int32) -> Int32) {
        let p = (x: contact.x, y: contact.y)
        let mx = contact.mmX
        let my = contact.mmY
        guard let i = index(of: contact.id) else { return land(contact, k, px: p.x, py: p.y, mx: mx, my: my, at: time) }
        let lastAt = watched[i].lastAt
        watched[i].lastAt = time
        // Only a jump reads the report before this one (kept apart: no copy without it).
        if rules.jump != nil { watched[i].previous = watched[i].last }
        watched[i].last = contact
        if contact.phase.isTerminal {
            watched[i].ending = true
            finishes = true
        }
        switch watched[i].fate {
        case .dropped, .cancelled:
            return  // ignored until it lifts
        case .held:
            move(i, px: p.x, py: p.y, mx: mx, my: my, at: time)
            if rules.edgeHold?.isBezelTap(watched[i], lifting: contact.phase) == true {
                filter(i, .edge, at: time)
            } else if rules.ghost?.isGhost(watched[i], lifting: contact.phase, at: time) == true {
                filter(i, .ghost, at: time)
            } else if contact.phase == .ended || (!watched[i].still && contact.phase != .cancelled) {
                show(i, contact)
            }  // a held contact the device cancels was never shown: it just goes
        case .shown:
            // The frame after a jump: back near where it was, the jumped report was an
            // outlier and the stroke goes on; elsewhere, it moved there: split.
            if watched[i].jumpHeld, let jump = rules.jump {
                watched[i].jumpHeld = false
                if jump.isBack(watched[i], to: mx, my) {
                    dropOutlier(i, at: time)
                } else {
                    splitHeldJump(i, at: time, freshID: freshID)
                }
            } else if rules.jump?.isJump(watched[i], to: mx, my, at: time, after: lastAt) == true {
                if contact.phase.isTerminal {
                    // The lift ends it where it was, not where the bad report put it.
                    var end = watched[i].previous
                    end.phase = contact.phase
                    return emit(i, end)
                }
                // Held a frame: nothing goes on for it until the next report tells.
                watched[i].jumpHeld = true
                watched[i].jumpedAt = time
                watched[i].beforeJump = watched[i].previous
                watched[i].jumped = contact
                return
            }
            move(i, px: p.x, py: p.y, mx: mx, my: my, at: time)
            if rules.ghost?.isGhost(watched[i], lifting: contact.phase, at: time) == true {
                filter(i, .ghost, at: time)
            } else {
                pass(i, contact, k)
            }
        }
    }

    /// The landing chain: a contact seen for the first time, judged where it lands alone
    /// (masks, masked spots), then held for the rules that wait (bezel touches, ghosts).
    private func land(_ contact: ScreenContact, _ k: Int, px: Double, py: Double, mx: Double, my: Double, at time: Microseconds) {
        // Never seen down: nothing to judge (the engine ignores it too).
        guard !contact.phase.isTerminal else { return put(contact) }
        guard watchedCount < Self.capacity else {
            unwatched += 1
            return put(contact)
        }
        let i = watchedCount
        watchedCount += 1
        watched[i] = Watched(
            id: contact.id, outputID: contact.id, fate: .shown, downAt: time, startX: mx, startY: my, x: mx, y: my,
            anchorX: mx, anchorY: my, stillSince: time, lastAt: time, px: px, py: py, fresh: contact.phase == .began, last: contact,
            landed: contact)
        finishes = true
        // A contact already down when the stage started goes on as it was.
        guard contact.phase == .began else { return pass(i, contact, k) }
        counts.contacts += 1
        if rules.mask?.covers(watched[i]) == true {
            drop(i, .mask, at: time)
        } else if spots?.masks(x: mx, y: my, at: time) == true {
            drop(i, .spot, at: time)
        } else if rules.edgeHold?.holds(watched[i], on: geometry) == true {
            watched[i].fate = .held
            watched[i].atEdge = true
            counts.held += 1
        } else if rules.ghost?.holds == true {
            watched[i].fate = .held
            counts.held += 1
        } else {
            pass(i, contact, k)
        }
    }

    /// Filters a contact in its landing frame: never shown.
    private func drop(_ i: Int, _ rule: HealthRule, at time: Microseconds) {
        watched[i].fate = .held
        filter(i, rule, at: time)
    }

    private func move(_ i: Int, px: Double, py: Double, mx: Double, my: Double, at time: Microseconds) {
        watched[i].px = px
        watched[i].py = py
        watched[i].x = mx
        watched[i].y = my
        if rules.tracksStill, watched[i].still, length(mx - watched[i].startX, my - watched[i].startY) > rules.still {
            watched[i].still = false
        }
        // The stuck release's anchor: where the contact last rested, since when.
        if rules.stuck != nil, length(mx - watched[i].anchorX, my - watched[i].anchorY) > rules.still {
            watched[i].anchorX = mx
            watched[i].anchorY = my
            watched[i].stillSince = time
        }
    }

    /// The report after a jump came back: the jumped one is dropped (counted and recorded
    /// where it was), the contact goes on from where it was shown.
    private func dropOutlier(_ i: Int, at time: Microseconds) {
        counts[.outlier] += 1
        noteFiltered(i, .outlier, wasShown: false, x: watched[i].jumped.x, y: watched[i].jumped.y, at: time)
    }

    /// A jump that stayed: the contact shown so far is cancelled where it was, and one with
    /// a fresh id begins where the jumped report put it (its later reports go on from there).
    private func splitHeldJump(_ i: Int, at time: Microseconds, freshID: (Int32) -> Int32) {
        watched[i].jumpHeld = false
        var old = watched[i].beforeJump
        old.phase = .cancelled
        emit(i, old)
        counts[.jump] += 1
        noteFiltered(i, .jump, wasShown: true, x: watched[i].px, y: watched[i].py, at: time)
        let jumped = watched[i].jumped
        watched[i].outputID = freshID(watched[i].id)
        watched[i].downAt = time
        watched[i].startX = jumped.mmX
        watched[i].startY = jumped.mmY
        watched[i].anchorX = jumped.mmX
        watched[i].anchorY = jumped.mmY
        watched[i].stillSince = time
        watched[i].still = true
        move(i, px: jumped.x, py: jumped.y, mx: jumped.mmX, my: jumped.mmY, at: time)
        var new = jumped
        new.phase = .began
        emit(i, new)
    }

    /// Shows a held contact from now on, with `contact` (a lift right away when it is one).
    /// One held at the border begins where it landed and moves to `contact` in the same
    /// frame, so the gestures judge it from its first position (an edge pan's edge).
    private func show(_ i: Int, _ contact: ScreenContact) {
        watched[i].fate = .shown
        var began = watched[i].atEdge ? watched[i].landed : contact
        began.phase = .began
        emit(i, began)
        if contact.phase.isTerminal || watched[i].atEdge { emit(i, contact) }
    }

    /// `emit` of the frame's contact `k` (`contact` itself): passed, not copied, when it goes
    /// on as it came (its own id, no hold, no `began` due) behind only such contacts.
    @inline(__always) private func pass(_ i: Int, _ contact: ScreenContact, _ k: Int) {
        if mirrors, passed == k, !watched[i].pendingBegan, watched[i].outputID == contact.id,
            contact.held == (contact.phase == .began ? output.time - watched[i].downAt : 0)
        {
            passed += 1
        } else {
            emit(i, contact)
        }
    }

    /// Writes `contact` on with the id it goes on with (`began` when a timer showed it).
    /// A `began` carries how long it was held since the contact went down (or was split).
    private func emit(_ i: Int, _ contact: ScreenContact) {
        var out = contact
        out.id = watched[i].outputID
        out.held = out.phase == .began ? output.time - watched[i].downAt : 0
        if watched[i].pendingBegan {
            watched[i].pendingBegan = false
            var began = out
            began.phase = .began
            began.held = output.time - watched[i].downAt
            put(began)
            if !contact.phase.isTerminal { return }
        }
        put(out)
    }

    /// Filters contact `i` by `rule`: a held contact is dropped unseen; a shown one is taken
    /// back whole when it was first shown in this very frame, cancelled otherwise.
    private func filter(_ i: Int, _ rule: HealthRule, at time: Microseconds) {
        let wasShown: Bool
        switch watched[i].fate {
        case .held:
            watched[i].fate = .dropped(rule)
            wasShown = false
        case .shown:
            // Shown by a timer of this frame but not written yet, or written in this frame
            // only: nobody saw it.
            if watched[i].pendingBegan || takeBack(i) {
                watched[i].fate = .dropped(rule)
                wasShown = false
            } else {
                watched[i].fate = .cancelled(rule)
                wasShown = true
            }
        case .dropped, .cancelled:
            return
        }
        watched[i].pendingBegan = false
        counts[rule] += 1
        noteFiltered(i, rule, wasShown: wasShown, x: watched[i].px, y: watched[i].py, at: time)
    }

    /// Removes a contact's entries from this frame's output when it began in it (nobody saw
    /// it: returns true); otherwise makes its last entry, or a new one, a cancel.
    private func takeBack(_ i: Int) -> Bool {
        writeOut()
        let id = watched[i].outputID
        var beganHere = false
        var lastEntry = -1
        for k in 0..<output.contacts.count where output.contacts[k].id == id {
            if output.contacts[k].phase == .began { beganHere = true }
            lastEntry = k
        }
        if beganHere {
            var k = output.contacts.count - 1
            while k >= 0 {
                if output.contacts[k].id == id { output.contacts.remove(at: k) }
                k -= 1
            }
            return true
        }
        if lastEntry >= 0 {
            output.contacts[lastEntry].phase = .cancelled
        } else {
            var cancel = watched[i].last
            cancel.id = id
            cancel.phase = .cancelled
            put(cancel)
        }
        return false
    }

    /// Counts a filtered contact (or report, at screen px `x`, `y`) towards the noise rate
    /// and records it.
    private func noteFiltered(_ i: Int, _ rule: HealthRule, wasShown: Bool, x: Double, y: Double, at time: Microseconds) {
        if recordsFiltered {
            filtered.append(FilteredContact(time: time, id: watched[i].id, rule: rule, wasShown: wasShown, x: x, y: y))
        }
        guard let noisy = settings.noisy else { return }
        rate?.record(time)
        guard let over = rate?.overUntil(time) else { return }
        okAt = over + noisy.quiet
        if state == .ok { change(to: .noisy, .filtered(count: rate?.count(at: time) ?? 0, perMinute: noisy.perMinute), at: time) }
    }

    /// The frame chain: the burst rules, over the contacts of the frame together (Chromium's
    /// filters look at every touch of a report).
    private func judgeFrame(at time: Microseconds) {
        if let aligned = rules.aligned {
            for i in 0..<watchedCount where aligned.isAligned(i, in: table) { filter(i, .aligned, at: time) }
        }
        if let farApart = rules.farApart {
            // Contacts marked first, filtered after: each is judged against the same set.
            var marked = farApart.marked(table, at: time)
            var i = 0
            while marked != 0 {
                if marked & 1 != 0 { filter(i, .farApart, at: time) }
                marked >>= 1
                i += 1
            }
        }
    }

    private var table: Table { Table(base: watched, count: watchedCount) }

    /// Shows the contacts timers showed without a frame of theirs, then forgets the lifted
    /// ones (and lands still ones on the spot tracker).
    private func finishFrame() {
        guard finishes else { return }
        finishes = false
        var i = 0
        while i < watchedCount {
            if watched[i].pendingBegan { emit(i, watched[i].last) }
            watched[i].fresh = false
            guard watched[i].ending else {
                i += 1
                continue
            }
            if watched[i].still, watched[i].fate != .dropped(.mask), watched[i].fate != .dropped(.spot) {
                landSpot(watched[i], at: output.time)
            }
            watchedCount -= 1
            watched[i] = watched[watchedCount]
        }
    }

    private func landSpot(_ w: Watched, at time: Microseconds) {
        // In place (optional chaining): a copy of the tracker would copy its tables.
        guard spots?.land(x: w.startX, y: w.startY, px: w.px, py: w.py, at: w.downAt, now: time) == true else { return }
        counts.spotsMasked += 1
        notices.append(HealthNotice(time: time, kind: .spotMasked(x: w.px, y: w.py)))
    }

    // MARK: timers

    /// The deadline chain of contact `i`: when each of its timers is due (nil: none), in
    /// the order they run (`runTimers` runs the first one due; `earliestDeadline` takes the
    /// earliest).
    @inline(__always) private func timers(_ i: Int) -> (show: Microseconds?, split: Microseconds?, stuck: Microseconds?) {
        switch watched[i].fate {
        case .held: (rules.ghost?.showsAt(watched[i]), nil, nil)
        case .shown: (nil, rules.jump?.splitsAt(watched[i]), rules.stuck?.dueAt(watched[i]))
        case .dropped, .cancelled: (nil, nil, nil)
        }
    }

    private func runTimers(upTo time: Microseconds, freshID: (Int32) -> Int32) {
        for i in 0..<watchedCount {
            let t = timers(i)
            if let show = t.show, show <= time {
                watched[i].fate = .shown
                watched[i].pendingBegan = true
                finishes = true
            } else if let split = t.split, split <= time {
                // No report came back in time: it moved there.
                splitHeldJump(i, at: split, freshID: freshID)
            } else if let stuck = t.stuck, stuck <= time {
                filter(i, .stuck, at: time)
            }
        }
        if state == .noisy, okAt <= time, let noisy = settings.noisy {
            change(to: .ok, .quiet(perMinute: noisy.perMinute, quiet: noisy.quiet), at: okAt)
        }
        if let silent = rules.silent, state != .silent, lastFrame + silent.after <= time {
            change(to: .silent, .noFrame(silence: silent.after), at: lastFrame + silent.after)
        }
        if let release = spots?.release, spots?.nextRelease.map({ $0 <= time }) == true {
            spots?.releaseQuiet(at: time) { spot in
                notices.append(HealthNotice(time: spot.lastHit + release, kind: .spotReleased(x: spot.px, y: spot.py)))
            }
        }
    }

    private func change(to new: HealthState, _ reason: HealthReason, at time: Microseconds) {
        guard new != state else { return }
        notices.append(HealthNotice(time: time, kind: .state(from: state, to: new, reason: reason)))
        state = new
        if new != .noisy { okAt = .max }
    }
}
