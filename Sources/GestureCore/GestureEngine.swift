/// The recognizer engine: contacts in, gesture events out.
///
/// Pure and deterministic: it never reads a clock (time comes with frames and `advance`),
/// performs no I/O, and after `attach` allocates nothing while it handles frames (events go
/// into the caller's reused buffer; keep its capacity). It owns hit-testing, the recognizers
/// and the arbitration between them (docs/SEMANTICS.md).
///
/// Arbitration (UIKit's rules, docs/SEMANTICS.md "Arbitration"). A recognizer that wants to recognize
/// or begin asks, in this order: should-begin; prevention by a running gesture that shares
/// a contact; its failure requirements (one still possible or pending holds it as
/// `pending`, one that recognized or began makes it fail). Accepted, it excludes its rivals:
/// every other gesture sharing a contact with it that is still possible or pending, held
/// ones included, fails unless the two are simultaneous or `canPrevent` says no. All of
/// them fail *before* any gesture waiting on one of those failures may recognize, so a
/// triple tap never releases the single tap waiting on the double tap it just excluded.
/// Every phase change goes through `transition`, which refuses and reports illegal ones.
///
/// Frames arrive already on the screen (`ScreenFrame`: px and mm), placed by the pipeline's
/// boundary, which also keeps palms away (`TouchPipeline`): the engine knows devices only
/// by their geometry's scale and their name.
///
/// Call order: `attach` each device, then `handle` every frame in time order and
/// `advance(to:)` whenever `nextDeadline` passes. Engine time never goes backwards: a frame
/// older than the engine's time is taken as happening now.
public final class GestureEngine {
    // `@exclusivity(unchecked)`: the engine is used from one thread only, and the runtime's
    // dynamic exclusivity checks on these properties cost about a third of a frame (docs/BENCHMARKS.md).
    @exclusivity(unchecked) public private(set) var model: GestureModel
    /// Record every transition for `drainTrace` (costs appends, never formatting).
    public var traceEnabled = false

    @exclusivity(unchecked) private var views: ViewTree
    @exclusivity(unchecked) private var relations: Relations
    @exclusivity(unchecked) private var recognizers: [any Recognizer]
    @exclusivity(unchecked) private var gestures: [GestureRuntime]
    /// The gestures per-frame work visits (`EngagedGestures`).
    @exclusivity(unchecked) private var engaged: EngagedGestures
    /// `receivers[v]`: the gestures on view v and its ancestors, the only ones a contact
    /// hit-tested to v can reach.
    @exclusivity(unchecked) private var receivers: [[Int]]
    let contacts = ContactTable()
    @exclusivity(unchecked) private var devices: [DeviceRecord] = []
    @exclusivity(unchecked) private var trace: [TraceRecord] = []
    @exclusivity(unchecked) private(set) var now: Microseconds = 0
    /// Contacts that went down while every slot of `contacts` was taken.
    @exclusivity(unchecked) private var droppedContacts = 0
    /// Phase changes the arbitration rules do not allow, refused (`transition`): 0 unless
    /// the engine has a bug. The daemon logs an increase.
    @exclusivity(unchecked) public private(set) var engineBugs = 0
    /// Set by `detach` when contacts of the device were still down: they are cancelled at
    /// the next `handle` or `advance`, which can report the events.
    @exclusivity(unchecked) private var orphanedContacts = false
    /// What the application sees of each contact, when `touchDeliveryEnabled`.
    @exclusivity(unchecked) private var delivery: TouchDelivery?

    public init(model: GestureModel) {
        self.model = model
        views = ViewTree(model.views)
        relations = Relations(model)
        recognizers = model.gestures.map(makeRecognizer)
        gestures = [GestureRuntime](repeating: GestureRuntime(), count: model.gestures.count)
        engaged = EngagedGestures(order: relations.order)
        receivers = Self.receivers(of: model, in: views)
        trace.reserveCapacity(256)
    }

    // MARK: devices

    /// Registers a device before its frames arrive: its name (for the device predicates) and
    /// its geometry on this model's screen (lengths in configured units become mm by its
    /// scale). Attaching an attached device again replaces both; attach again after a model
    /// with another screen.
    public func attach(device: DeviceID, name: String, geometry: DeviceGeometry) {
        let record = DeviceRecord(id: device, name: name, geometry: geometry, model: model)
        if let i = devices.firstIndex(where: { $0.id == device }) {
            devices[i] = record
        } else {
            devices.append(record)
        }
    }

    /// Forgets a device. Contacts of it still down are cancelled at the next `handle` or
    /// `advance` (normally the normalizer has cancelled them already).
    public func detach(device: DeviceID) {
        guard let d = devices.firstIndex(where: { $0.id == device }) else { return }
        devices[d].attached = false
        contacts.live.forEachIndex { i in
            if contacts.slots[i].device == device { orphanedContacts = true }
        }
    }

    // MARK: time and frames

    /// Feeds one frame of one device. Timers due up to the frame's time fire first.
    public func handle(_ frame: ScreenFrame, into events: inout [GestureEvent]) {
        advance(to: frame.time, into: &events)
        let d = deviceIndex(frame.device)
        contacts.startFrame()
        // Index loops throughout the hot path: an unspecialized array iterator allocates.
        for i in 0..<frame.contacts.count { ingest(frame.contacts[i], device: d) }
        contacts.live &= ~(contacts.ended | contacts.cancelled)
        // Cancels first: a gesture a cancel ends takes none of the frame's new contacts
        // (a jump's split: the pan that held the old contact does not swallow the new one).
        if contacts.cancelled != 0 { cancelHolders(reason: .contactsCancelled, into: &events) }
        deliverBegan(device: d)
        updateRecognizers(into: &events)
        settle()
    }

    /// Fires every deadline up to `time` in order, each at its own time, then moves the
    /// engine's time to `time`.
    public func advance(to time: Microseconds, into events: inout [GestureEvent]) {
        if orphanedContacts { cancelOrphans(into: &events) }
        while let (g, deadline) = earliestDeadline(), deadline <= time {
            now = max(now, deadline)
            let verdict = recognizers[g].expire(input(g))
            refreshDeadline(g)
            apply(verdict, to: g, into: &events)
            settle()
        }
        now = max(now, time)
    }

    /// The earliest time `advance` has work, or nil.
    public var nextDeadline: Microseconds? { earliestDeadline()?.deadline }

    // MARK: models

    /// Swaps the model between two frames. Gestures that are unchanged (same name, same spec
    /// and view read by names: `ModelDiff`) keep running; removed or changed ones end with `cancelled` if they had begun
    /// and are dropped silently otherwise. The events this call writes carry the previous
    /// model's indices, and so do the trace records it adds (resolve their names with it);
    /// later calls use the new model's. A removed gesture counts as failed for those waiting
    /// on it (a relation lives in a spec, so dropping one always changes a gesture). Disabling
    /// a gesture is a model with its `enabled` false.
    public func replaceModel(_ newModel: GestureModel, at time: Microseconds, into events: inout [GestureEvent]) {
        advance(to: time, into: &events)
        // By name, not index: a gesture added before others shifts the indices in their specs.
        let kept = ModelDiff(from: model, to: newModel).continuing.map { old in
            old.flatMap { model.gestures[$0].enabled ? $0 : nil }
        }
        // All of them end before a gesture waiting on one of them may recognize.
        for (old, spec) in model.gestures.enumerated() where !kept.contains(old) {
            finish(
                old, as: .cancelled,
                reason: spec.enabled && newModel.gestures.contains { $0.name == spec.name && !$0.enabled }
                    ? .disabled : .modelReplaced, into: &events)
        }
        releaseFailed(into: &events)
        // Contacts keep their hit view by name.
        for i in 0..<ContactTable.capacity where contacts.taken & (1 << ContactMask(i)) != 0 {
            let hit = contacts.slots[i].hitView
            contacts.slots[i].hitView = hit >= 0 ? (newModel.views.firstIndex { $0.name == model.views[hit].name } ?? -1) : -1
        }
        model = newModel
        views = ViewTree(newModel.views)
        relations = Relations(newModel)
        recognizers = newModel.gestures.indices.map { kept[$0].map { recognizers[$0] } ?? makeRecognizer(newModel.gestures[$0]) }
        gestures = newModel.gestures.indices.map { kept[$0].map { gestures[$0] } ?? GestureRuntime() }
        engaged = EngagedGestures(order: relations.order)
        receivers = Self.receivers(of: newModel, in: views)
        for g in gestures.indices {
            refreshDeadline(g)
            if gestures[g].received != 0 || gestures[g].phase != .possible { engaged.insert(g) }
        }
        for d in devices.indices { devices[d].update(for: newModel) }
        delivery?.update(views: newModel.views)
        settle()
    }

    // MARK: observation

    /// Moves the transitions recorded since the last drain into `records`.
    public func drainTrace(into records: inout [TraceRecord]) {
        records.append(contentsOf: trace)
        trace.removeAll(keepingCapacity: true)
    }

    /// Decide, at every step, what the application sees of each contact (`TouchDelivery`);
    /// drain the changes with `drainTouchChanges`. Off by default: it costs a pass over the
    /// engaged gestures per step. Turning it on starts with the contacts that go down next.
    public var touchDeliveryEnabled: Bool {
        get { delivery != nil }
        set {
            guard newValue != (delivery != nil) else { return }
            delivery = newValue ? TouchDelivery(views: model.views) : nil
        }
    }

    /// Moves the application-side touch changes since the last drain into `changes`.
    public func drainTouchChanges(into changes: inout [TouchChange]) {
        guard let delivery else { return }
        changes.append(contentsOf: delivery.changes)
        delivery.changes.removeAll(keepingCapacity: true)
    }

    /// Contacts passed, held and cancelled since touch delivery was enabled.
    public var touchDeliveryCounts: TouchDeliveryCounts { delivery?.counts ?? TouchDeliveryCounts() }

    /// Every gesture's state now.
    public func snapshot() -> EngineSnapshot {
        EngineSnapshot(
            time: now, contacts: contacts.live.nonzeroBitCount,
            gestures: gestures.map { g in
                GestureStatus(
                    state: g.state, pendingSince: g.pendingSince, recognitions: g.recognitions,
                    contacts: (g.received & contacts.live).nonzeroBitCount)
            }, droppedContacts: droppedContacts, engineBugs: engineBugs)
    }
}

// MARK: - contacts

extension GestureEngine {
    /// The index of a device's record; a device never attached gets 1 pt = 1 px units.
    private func deviceIndex(_ id: DeviceID) -> Int {
        for d in 0..<devices.count where devices[d].id == id { return d }
        let unknown = AxisRange(minimum: 0, maximum: 0)
        attach(device: id, name: "", geometry: DeviceGeometry(screen: model.screen, x: unknown, y: unknown, mapping: .identity))
        return devices.count - 1
    }

    /// Takes one contact of a frame into the table. A contact that became a palm arrives
    /// cancelled with the palm tool (the pipeline's palm stage): its gestures end with
    /// "became a palm".
    private func ingest(_ contact: ScreenContact, device d: Int) {
        let bit: ContactMask
        let i: Int
        if let found = contacts.slot(device: devices[d].id, id: contact.id) {
            i = found
            bit = 1 << ContactMask(i)
            switch contact.phase {
            case .ended: contacts.ended |= bit
            case .cancelled:
                contacts.cancelled |= bit
                if contact.toolType == .palm { contacts.becamePalm |= bit }
            case .began, .moved, .stationary:
                if contact.x != contacts.slots[i].x || contact.y != contacts.slots[i].y { contacts.moved |= bit }
            }
        } else {
            // A contact seen first in a terminal phase never reached any recognizer.
            guard !contact.phase.isTerminal else {
                delivery?.passUntracked(contact, device: devices[d].id, now: now)
                return
            }
            guard let free = contacts.takeSlot() else {
                // Counted once, when it goes down: its later frames find no slot either.
                if contact.phase == .began { droppedContacts += 1 }
                delivery?.passUntracked(contact, device: devices[d].id, now: now)
                return
            }
            i = free
            bit = 1 << ContactMask(i)
            contacts.began |= bit
            contacts.live |= bit
            contacts.slots[i] = TrackedContact(
                device: devices[d].id, id: contact.id, toolType: contact.toolType,
                hitView: views.hitTest(x: contact.x, y: contact.y), downAt: now, held: contact.held)
            contacts.slots[i].startX = contact.x
            contacts.slots[i].startY = contact.y
            contacts.slots[i].startMMX = contact.mmX
            contacts.slots[i].startMMY = contact.mmY
        }
        contacts.slots[i].x = contact.x
        contacts.slots[i].y = contact.y
        contacts.slots[i].mmX = contact.mmX
        contacts.slots[i].mmY = contact.mmY
    }

    /// Gives each contact that began to the recognizers of its hit view and its ancestors
    /// that accept it (enabled, not finished, same device, should-receive-touch).
    private func deliverBegan(device d: Int) {
        contacts.began.forEachIndex { i in
            let contact = contacts.slots[i]
            guard contact.hitView >= 0 else { return }
            let candidates = receivers[contact.hitView]
            for k in 0..<candidates.count where accepts(candidates[k], contact, device: d) {
                let g = candidates[k]
                gestures[g].received |= 1 << ContactMask(i)
                gestures[g].device = d
                engaged.insert(g)
            }
        }
    }

    private static func receivers(of model: GestureModel, in views: ViewTree) -> [[Int]] {
        model.views.indices.map { hit in model.gestures.indices.filter { views.isSelfOrAncestor(model.gestures[$0].view, of: hit) } }
    }

    private func accepts(_ g: Int, _ contact: TrackedContact, device d: Int) -> Bool {
        guard model.gestures[g].enabled, gestures[g].device < 0 || gestures[g].device == d,
            views.isSelfOrAncestor(model.gestures[g].view, of: contact.hitView)
        else { return false }
        switch gestures[g].phase {
        case .possible, .active: break
        case .pending: guard model.gestures[g].type.isContinuous else { return false }
        case .finished: return false
        }
        let predicate = model.gestures[g].shouldReceiveTouch
        if !predicate.toolTypes.isEmpty, !predicate.toolTypes.contains(contact.toolType) { return false }
        if !predicate.hitViews.isEmpty {
            var listed = false
            for k in 0..<predicate.hitViews.count where predicate.hitViews[k] == contact.hitView { listed = true }
            if !listed { return false }
        }
        if let region = predicate.region, !region.contains(x: contact.startX, y: contact.startY) { return false }
        return devices[d].receives[g]
    }

    /// Cancels the contacts of detached devices.
    private func cancelOrphans(into events: inout [GestureEvent]) {
        orphanedContacts = false
        contacts.startFrame()
        var orphans: ContactMask = 0
        contacts.live.forEachIndex { i in
            let device = contacts.slots[i].device
            if !devices.contains(where: { $0.id == device && $0.attached }) { orphans |= 1 << ContactMask(i) }
        }
        contacts.cancelled = orphans
        contacts.live &= ~orphans
        cancelHolders(reason: .deviceDetached, into: &events)
        settle()
    }

    /// Resets finished gestures whose contacts have all lifted and frees contact slots no
    /// gesture refers to any more.
    private func settle() {
        if let delivery { observeDelivery(delivery) }
        var referenced: ContactMask = 0
        forEachEngaged { g in
            if gestures[g].phase == .finished, gestures[g].received & contacts.live == 0 { reset(g) }
            referenced |= gestures[g].received
            if gestures[g].received == 0, gestures[g].deadline == nil, gestures[g].phase == .possible { engaged.remove(g) }
        }
        contacts.release(keeping: referenced)
    }

    /// Tells `delivery` which gestures hold which contacts, before `settle` resets the
    /// finished ones (whose verdicts decide their contacts' fate).
    private func observeDelivery(_ delivery: TouchDelivery) {
        var claims = ContactClaims()
        forEachEngaged { g in
            let state = gestures[g].state
            claims.add(
                gestures[g].received, options: model.gestures[g].delivery,
                undecided: gestures[g].phase == .possible || gestures[g].phase == .pending,
                recognized: state != .possible && state != .failed)
        }
        delivery.observe(contacts, claims: claims, now: now)
    }

    private func reset(_ g: Int) {
        recognizers[g].reset()
        refreshDeadline(g)
        transition(g, to: .possible, state: .possible, reason: .reset)
        gestures[g].received = 0
        gestures[g].device = -1
        gestures[g].pendingSince = nil
    }

    /// Copies the recognizer's deadline into its runtime after every call that may change it,
    /// so that finding the earliest one is a scan of plain values, not of existentials.
    @inline(__always) private func refreshDeadline(_ g: Int) {
        gestures[g].deadline = recognizers[g].deadline
        if gestures[g].deadline != nil { engaged.insert(g) }
    }

    /// Calls `body` with each engaged gesture, in `Relations.order`. Each word of the set is
    /// read once, so `body` may change the set (gestures it engages are not visited).
    @inline(__always) private func forEachEngaged(_ body: (Int) -> Void) {
        for w in 0..<engaged.words.count {
            var rest = engaged.words[w]
            while rest != 0 {
                body(engaged.gesture(word: w, bit: rest.trailingZeroBitCount))
                rest &= rest &- 1
            }
        }
    }

    /// The first engaged gesture, in `Relations.order`, for which `predicate` holds.
    @inline(__always) private func firstEngaged(where predicate: (Int) -> Bool) -> Int? {
        for w in 0..<engaged.words.count {
            var rest = engaged.words[w]
            while rest != 0 {
                let g = engaged.gesture(word: w, bit: rest.trailingZeroBitCount)
                if predicate(g) { return g }
                rest &= rest &- 1
            }
        }
        return nil
    }

    private func earliestDeadline() -> (gesture: Int, deadline: Microseconds)? {
        var best: (gesture: Int, deadline: Microseconds)?
        forEachEngaged { g in
            guard gestures[g].phase == .possible || gestures[g].phase == .active else { return }
            if let d = gestures[g].deadline, best == nil || d < best!.deadline { best = (g, d) }
        }
        return best
    }

    private func input(_ g: Int) -> RecognizerInput {
        let received = gestures[g].received
        let d = max(gestures[g].device, 0)
        return RecognizerInput(
            time: now, contacts: contacts,
            mask: received & (contacts.live | contacts.ended | contacts.cancelled),
            live: received & contacts.live, began: received & contacts.began,
            geometry: devices.isEmpty ? DeviceGeometry.fallback : devices[d].geometry, screen: model.screen)
    }
}

// MARK: - arbitration

extension GestureEngine {
    /// Asks every recognizer whose contacts changed, in `Relations.order`.
    private func updateRecognizers(into events: inout [GestureEvent]) {
        let touched = contacts.touched
        forEachEngaged { g in
            guard gestures[g].received & touched != 0, gestures[g].phase != .finished else { return }
            // A held discrete recognition is decided; a held continuous gesture keeps tracking.
            if gestures[g].phase == .pending, !model.gestures[g].type.isContinuous { return }
            let verdict = recognizers[g].update(input(g))
            refreshDeadline(g)
            apply(verdict, to: g, into: &events)
        }
    }

    private func apply(_ verdict: RecognizerVerdict, to g: Int, into events: inout [GestureEvent]) {
        switch verdict {
        case .none:
            break
        case .changed:
            if gestures[g].phase == .active { emit(g, .changed, reason: .changed, into: &events) }
        case .recognized(let reason), .began(let reason):
            if gestures[g].phase == .possible { attempt(g, reason: reason, into: &events) }
        case .ended(let reason):
            end(g, as: .ended, reason: reason, into: &events)
        case .failed(let reason):
            fail(g, reason: reason, into: &events)
        }
    }

    /// `g` wants to recognize or begin (or, held, one of its requirements failed). Asked in
    /// UIKit's order: should-begin, prevention by a running gesture, failure requirements;
    /// then it is accepted, waits, or fails.
    private func attempt(_ g: Int, reason: TraceReason, into events: inout [GestureEvent]) {
        let event = makeEvent(g, model.gestures[g].type.isContinuous ? .began : .recognized)
        guard shouldBegin(g, event) else { return fail(g, reason: .shouldBeginRefused, into: &events) }
        if let o = runningPreventer(of: g) { return fail(g, reason: .preventedBy(o), into: &events) }
        switch requirements(of: g) {
        case .met: accept(g, event, reason: reason, into: &events)
        case .waiting(let b): hold(g, event, waitingFor: b)
        case .recognized(let b): fail(g, reason: .requirementRecognized(b), into: &events)
        }
    }

    /// `gestureRecognizerShouldBegin`: the spec's `should_begin` and its devices.
    private func shouldBegin(_ g: Int, _ event: GestureEvent) -> Bool {
        let begin = model.gestures[g].shouldBegin
        if let touches = begin.touches, !touches.contains(event.touches) { return false }
        if let region = begin.region, !region.contains(x: event.x, y: event.y) { return false }
        return devices.isEmpty || devices[max(gestures[g].device, 0)].begins[g]
    }

    /// A running continuous gesture that shares a contact with `g` and prevents it, if any.
    private func runningPreventer(of g: Int) -> Int? {
        // Only engaged gestures can share a contact with g.
        firstEngaged { o in
            o != g && gestures[o].phase == .active && shares(o, g) && !relations.areSimultaneous(o, g) && relations.canPrevent(o, g)
        }
    }

    private enum Requirements {
        /// Every failure requirement sharing a contact has failed (or none shares one).
        case met
        /// This one may still recognize.
        case waiting(Int)
        /// This one recognized or began.
        case recognized(Int)
    }

    /// Where the failure requirements of `g` stand; one that received none of its contacts
    /// counts as failed.
    private func requirements(of g: Int) -> Requirements {
        let requirements = relations.requirements[g]
        for k in 0..<requirements.count where shares(requirements[k], g) {
            let b = requirements[k]
            switch gestures[b].phase {
            case .possible, .pending: return .waiting(b)
            case .active: return .recognized(b)
            case .finished: if gestures[b].state == .recognized || gestures[b].state == .ended { return .recognized(b) }
            }
        }
        return .met
    }

    /// `g` recognized or began while `b`, which it requires to fail, may still recognize: it
    /// is held (a discrete recognition as it happened) until `b` decides.
    private func hold(_ g: Int, _ event: GestureEvent, waitingFor b: Int) {
        guard gestures[g].phase == .possible, transition(g, to: .pending, state: .pending, reason: .requiredFailureOf(b)) else { return }
        gestures[g].pendingSince = now
        gestures[g].held = event
    }

    /// UIKit's touchesCancelled: every gesture holding a contact cancelled in this frame ends,
    /// `cancelled` once begun, failed before (a held recognition too). All of them end before
    /// a gesture waiting on one of those failures may recognize.
    private func cancelHolders(reason: TraceReason, into events: inout [GestureEvent]) {
        forEachEngaged { g in
            guard gestures[g].received & contacts.cancelled != 0 else { return }
            let palm = gestures[g].received & contacts.becamePalm != 0
            finish(g, as: .cancelled, reason: palm ? .becamePalm : reason, into: &events)
        }
        releaseFailed(into: &events)
    }

    /// `g` recognizes or begins: its event goes out, then its rivals are excluded.
    private func accept(_ g: Int, _ attempted: GestureEvent, reason: TraceReason, into events: inout [GestureEvent]) {
        let continuous = model.gestures[g].type.isContinuous
        guard transition(g, to: continuous ? .active : .finished, state: attempted.state, reason: reason) else { return }
        var event = attempted
        // A continuous gesture's values count from the began it reports (which may come later
        // than its recognizer asked, after waiting); a discrete one reports itself as it was
        // first recognized.
        if continuous {
            recognizers[g].didBegin()
            refreshDeadline(g)
            event = makeEvent(g, .began)
        } else if gestures[g].pendingSince != nil {
            event = gestures[g].held
        }
        event.delayedFrom = gestures[g].pendingSince
        event.time = now
        gestures[g].pendingSince = nil
        gestures[g].recognitions += 1
        events.append(event)
        excludeRivals(of: g, into: &events)
    }

    /// UIKit's exclusion: once `g` recognized or began, every other gesture sharing a contact
    /// with it that is still possible or pending fails, because it waits on `g` or because `g`
    /// prevents it (not simultaneous, `canPrevent`). All of them fail first; only then do the
    /// gestures waiting on those failures try again, so none of them recognizes through a
    /// failure that `g` caused while `g` excludes it too.
    private func excludeRivals(of g: Int, into events: inout [GestureEvent]) {
        forEachEngaged { o in
            guard o != g, shares(g, o), gestures[o].phase == .possible || gestures[o].phase == .pending else { return }
            if relations.requires(o, g) {
                markFailed(o, reason: .requirementRecognized(g))
            } else if !relations.areSimultaneous(g, o), relations.canPrevent(g, o) {
                markFailed(o, reason: .preventedBy(g))
            }
        }
        releaseFailed(into: &events)
    }

    /// The gestures waiting on failures that have not released them yet (`markFailed`) try
    /// again, in `Relations.order`.
    private func releaseFailed(into events: inout [GestureEvent]) {
        forEachEngaged { o in
            // A release before it may have released it already.
            if gestures[o].unreleased { releaseDependents(of: o, into: &events) }
        }
    }

    /// `g` fails (silently: failures emit no event), then the gestures waiting on it try again.
    private func fail(_ g: Int, reason: TraceReason, into events: inout [GestureEvent]) {
        guard gestures[g].phase != .finished, markFailed(g, reason: reason) else { return }
        releaseDependents(of: g, into: &events)
    }

    /// Moves `g` to failed; the gestures waiting on it stay held until `releaseDependents`.
    @discardableResult private func markFailed(_ g: Int, reason: TraceReason) -> Bool {
        guard transition(g, to: .finished, state: .failed, reason: reason) else { return false }
        gestures[g].pendingSince = nil
        gestures[g].unreleased = true
        return true
    }

    /// The gestures held by the failure of `g` try again.
    private func releaseDependents(of g: Int, into events: inout [GestureEvent]) {
        gestures[g].unreleased = false
        let dependents = relations.dependents[g]
        for k in 0..<dependents.count where gestures[dependents[k]].phase == .pending {
            attempt(dependents[k], reason: .requirementFailed(g), into: &events)
        }
    }

    /// Ends `g` with `state` (`ended` or `cancelled`) once begun; before that it fails
    /// silently, and the gestures waiting on it try again.
    private func end(_ g: Int, as state: GestureState, reason: TraceReason, into events: inout [GestureEvent]) {
        finish(g, as: state, reason: reason, into: &events)
        if gestures[g].unreleased { releaseDependents(of: g, into: &events) }
    }

    /// `end` without the release: the caller releases once every gesture it ends has ended.
    private func finish(_ g: Int, as state: GestureState, reason: TraceReason, into events: inout [GestureEvent]) {
        switch gestures[g].phase {
        case .active:
            guard transition(g, to: .finished, state: state, reason: reason) else { return }
            events.append(makeEvent(g, state))
        case .possible, .pending:
            markFailed(g, reason: reason)
        case .finished:
            break
        }
    }

    /// An event of a running gesture that leaves its phase as it is (`changed`).
    private func emit(_ g: Int, _ state: GestureState, reason: TraceReason, into events: inout [GestureEvent]) {
        events.append(makeEvent(g, state))
        record(g, to: state, reason: reason)
    }

    private func makeEvent(_ g: Int, _ state: GestureState) -> GestureEvent {
        let d = gestures[g].device
        var event = GestureEvent(
            time: now, gesture: g, view: model.gestures[g].view, state: state,
            device: d >= 0 && d < devices.count ? devices[d].id : DeviceID(0))
        recognizers[g].measure(into: &event)
        return event
    }

    @inline(__always) private func shares(_ a: Int, _ b: Int) -> Bool {
        gestures[a].received & gestures[b].received != 0
    }

    /// The one place a gesture's phase changes. A change the arbitration never makes
    /// (`GestureRuntime.Phase.allows`) is an engine bug: refused, counted in the snapshot's
    /// `engineBugs` and traced, never a crash (libinput's "BUG" log lines).
    @discardableResult
    private func transition(_ g: Int, to phase: GestureRuntime.Phase, state: GestureState, reason: TraceReason) -> Bool {
        guard gestures[g].phase.allows(phase, as: state) else {
            engineBugs += 1
            if traceEnabled {
                trace.append(
                    TraceRecord(
                        time: now, gesture: g, view: model.gestures[g].view, from: gestures[g].state,
                        to: state, reason: .illegalTransition))
            }
            return false
        }
        gestures[g].phase = phase
        record(g, to: state, reason: reason)
        return true
    }

    private func record(_ g: Int, to state: GestureState, reason: TraceReason) {
        let from = gestures[g].state
        gestures[g].state = state
        guard traceEnabled, from != state else { return }
        trace.append(TraceRecord(time: now, gesture: g, view: model.gestures[g].view, from: from, to: state, reason: reason))
    }
}

/// The engine's side of one gesture: where arbitration has it, and what it holds.
struct GestureRuntime {
    enum Phase: Equatable {
        /// Its recognizer may still recognize or begin.
        case possible
        /// It recognized or began, held until its failure requirements fail.
        case pending
        /// A continuous gesture that began and has not ended.
        case active
        /// Recognized, ended, cancelled or failed: waits for its contacts to lift.
        case finished

        /// Whether arbitration may move a gesture from this phase to `next`, reporting `state`.
        func allows(_ next: Phase, as state: GestureState) -> Bool {
            switch (self, next) {
            case (.possible, .pending): state == .pending
            case (.possible, .active), (.pending, .active): state == .began
            case (.possible, .finished), (.pending, .finished): state == .recognized || state == .failed
            case (.active, .finished): state == .ended || state == .cancelled
            case (.finished, .possible): state == .possible
            default: false
            }
        }
    }

    var phase = Phase.possible
    /// The last state reported (in events or the trace).
    var state = GestureState.possible
    var received: ContactMask = 0
    /// Index into the engine's devices, -1 before its first contact.
    var device = -1
    var pendingSince: Microseconds?
    /// Failed, and the gestures waiting on it have not been released yet (`excludeRivals`).
    var unreleased = false
    /// The recognizer's `deadline` as of the engine's last call into it.
    var deadline: Microseconds?
    /// A discrete recognition held while pending, reported as it was first recognized.
    var held = GestureEvent(time: 0, gesture: 0, view: 0, state: .recognized, device: DeviceID(0))
    var recognitions = 0
}

/// One attached (or once attached) device, with its geometry (for its scale) and its
/// answers to the device predicates.
struct DeviceRecord {
    let id: DeviceID
    let name: String
    let geometry: DeviceGeometry
    var attached = true
    /// Per gesture: `should_receive_touch.devices` and `should_begin.devices` accept it.
    private(set) var receives: [Bool] = []
    private(set) var begins: [Bool] = []

    init(id: DeviceID, name: String, geometry: DeviceGeometry, model: GestureModel) {
        self.id = id
        self.name = name
        self.geometry = geometry
        update(for: model)
    }

    /// Re-derives everything that depends on the model's gestures.
    mutating func update(for model: GestureModel) {
        receives = model.gestures.map { anyGlobMatches($0.shouldReceiveTouch.devices, name) }
        begins = model.gestures.map { anyGlobMatches($0.shouldBegin.devices, name) }
    }
}
