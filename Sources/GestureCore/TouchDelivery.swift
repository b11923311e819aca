// What the application underneath sees of each contact (docs/CONFIG.md, "Touch delivery";
// UIKit's cancelsTouchesInView, delaysTouchesBegan, delaysTouchesEnded): UIKit's window
// gives touches to the recognizers first and to the view second; here "the view" is the
// application reading gestured's virtual touchscreen. Every rule is in this file:
// `ContactClaims.add` says what one gesture asks of its contacts, `DeliveryRule` turns that
// into what the application sees. The engine only reports, before it resets
// finished gestures, which gestures hold which contacts (`GestureEngine.settle`).

/// UIKit's `cancelsTouchesInView`, `delaysTouchesBegan` and `delaysTouchesEnded` for one
/// gesture, with UIKit's defaults.
public struct DeliveryOptions: Equatable, Sendable {
    /// When the gesture recognizes or begins, the contacts it holds that the application
    /// has seen are cancelled (and hidden until they lift).
    public var cancelsTouches: Bool
    /// A new contact is held back while this gesture is still possible; never shown if it
    /// recognizes or begins.
    public var delaysTouchesBegan: Bool
    /// A lift is held back while this gesture is still possible; cancelled instead if it
    /// recognizes.
    public var delaysTouchesEnded: Bool

    public init(cancelsTouches: Bool = true, delaysTouchesBegan: Bool = false, delaysTouchesEnded: Bool = true) {
        self.cancelsTouches = cancelsTouches
        self.delaysTouchesBegan = delaysTouchesBegan
        self.delaysTouchesEnded = delaysTouchesEnded
    }
}

/// One change of what the application sees of a contact.
public struct TouchChange: Equatable, Sendable {
    public enum Kind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case began, moved, ended, cancelled

        public var description: String {
            switch self {
            case .began: "began"
            case .moved: "moved"
            case .ended: "ended"
            case .cancelled: "cancelled"
            }
        }
    }

    /// Engine time of the change, µs.
    public var time: Microseconds
    public var device: DeviceID
    /// The contact's id (`Contact.id`, from `ABS_MT_TRACKING_ID`).
    public var id: Int32
    public var kind: Kind
    /// How long the change was held back: a `began` since the contact went down on the
    /// panel (the health stage's hold included), an `ended` since it lifted; 0 otherwise.
    public var delay: Microseconds
    /// The contact's last position, screen px.
    public var x: Double
    public var y: Double
    /// The contact's hit view; -1 for a contact the engine could not track (passed as is).
    public var view: Int

    public init(
        time: Microseconds, device: DeviceID, id: Int32, kind: Kind, delay: Microseconds = 0,
        x: Double = 0, y: Double = 0, view: Int = -1
    ) {
        self.time = time
        self.device = device
        self.id = id
        self.kind = kind
        self.delay = delay
        self.x = x
        self.y = y
        self.view = view
    }
}

/// What the gestures holding contacts ask of them at one moment, as sets of contacts.
struct ContactClaims {
    /// A gesture with `cancelsTouches` recognized or began.
    var cancel: ContactMask = 0
    /// A gesture with `delaysTouchesBegan` is still possible (or pending).
    var holdBegan: ContactMask = 0
    /// A gesture with `delaysTouchesBegan` recognized or began.
    var discardBegan: ContactMask = 0
    /// A gesture with `delaysTouchesEnded` is still possible (or pending).
    var holdEnded: ContactMask = 0
    /// A gesture with `delaysTouchesEnded` recognized or began.
    var cancelEnded: ContactMask = 0

    /// Adds one gesture holding `received`. `undecided`: it may still recognize or fail
    /// (possible, or pending on a failure requirement); `recognized`: it recognized or began
    /// (whatever came after).
    @inline(__always)
    mutating func add(_ received: ContactMask, options: DeliveryOptions, undecided: Bool, recognized: Bool) {
        if recognized {
            if options.cancelsTouches { cancel |= received }
            if options.delaysTouchesBegan { discardBegan |= received }
            if options.delaysTouchesEnded { cancelEnded |= received }
        } else if undecided {
            if options.delaysTouchesBegan { holdBegan |= received }
            if options.delaysTouchesEnded { holdEnded |= received }
        }
    }

    /// One contact's bits.
    func of(_ i: Int) -> Claim {
        let bit = ContactMask(1) << ContactMask(i)
        return Claim(
            cancel: cancel & bit != 0, holdBegan: holdBegan & bit != 0, discardBegan: discardBegan & bit != 0,
            holdEnded: holdEnded & bit != 0, cancelEnded: cancelEnded & bit != 0)
    }
}

/// `ContactClaims` for one contact.
struct Claim: Equatable {
    var cancel = false, holdBegan = false, discardBegan = false, holdEnded = false, cancelEnded = false
}

/// Where a contact stands as the application sees it.
enum AppTouchState: UInt8, Equatable {
    /// Down, its `began` held back (`delaysTouchesBegan`).
    case held
    /// The application has it down.
    case shown
    /// Lifted, the application still has it down: the lift is held (`delaysTouchesEnded`).
    case endHeld
    /// The application got a cancel; hidden until it lifts.
    case cancelled
    /// Never shown (a `passthrough = false` view, or claimed before it was shown) until it lifts.
    case hidden
}

/// The rules, one contact at a time: from where it stands, what the physical contact did
/// and what its gestures claim, where it goes and what the application sees. Pure.
enum DeliveryRule {
    /// The outcome of one step: the next state (nil: the contact is done) and up to two
    /// changes, in order (a held began and its lift can go out together).
    struct Step: Equatable {
        var next: AppTouchState?
        var first: TouchChange.Kind?
        var second: TouchChange.Kind?
    }

    /// A contact the engine has just started tracking. `blocked`: it began in a
    /// `passthrough = false` view.
    static func arrive(blocked: Bool, _ claim: Claim) -> Step {
        if blocked || claim.cancel || (claim.discardBegan && !claim.holdBegan) { return Step(next: .hidden) }
        if claim.holdBegan { return Step(next: .held) }
        return Step(next: .shown, first: .began)
    }

    /// A known contact after the engine's latest step. `lifted`: it is no longer down
    /// (`liftCancelled`: the panel or the normalizer cancelled it rather than lifted it);
    /// `moved`: it moved in this frame; `heldLift`: a gesture with `delaysTouchesEnded`
    /// was still possible when it lifted (asked only of a lift seen in this step).
    static func step(
        _ state: AppTouchState, lifted: Bool, liftCancelled: Bool, moved: Bool, heldLift: Bool,
        _ claim: Claim
    ) -> Step {
        switch state {
        case .held:
            if claim.cancel || claim.discardBegan { return Step(next: lifted ? nil : .hidden) }
            if claim.holdBegan { return Step(next: .held) }
            // Every gesture that delayed it failed: shown now, where it is now (and its lift,
            // if it has lifted meanwhile, held while a gesture delaying lifts is possible).
            let then = step(
                .shown, lifted: lifted, liftCancelled: liftCancelled, moved: false,
                heldLift: heldLift || claim.holdEnded, claim)
            return Step(next: then.next, first: .began, second: then.first)
        case .shown:
            if claim.cancel { return Step(next: lifted ? nil : .cancelled, first: .cancelled) }
            guard lifted else { return Step(next: .shown, first: moved ? .moved : nil) }
            if liftCancelled { return Step(next: nil, first: .cancelled) }
            if heldLift {
                // The lift waits for the gestures that delay it; one that recognized in
                // this very step turns it into a cancel at once.
                return step(.endHeld, lifted: true, liftCancelled: false, moved: false, heldLift: true, claim)
            }
            return Step(next: nil, first: .ended)
        case .endHeld:
            if claim.cancel || claim.cancelEnded { return Step(next: nil, first: .cancelled) }
            if claim.holdEnded { return Step(next: .endHeld) }
            return Step(next: nil, first: .ended)
        case .cancelled, .hidden:
            return Step(next: lifted ? nil : state)
        }
    }
}

/// The application's view of every contact the engine tracks, one record per `ContactTable`
/// slot, and the changes since the caller last drained them. Owned by the engine
/// (`GestureEngine.touchDelivery`); allocates nothing per frame once `changes` has grown.
final class TouchDelivery {
    private struct Record {
        /// nil: no contact (or its delivery is over).
        var state: AppTouchState?
        var device = DeviceID(0)
        var id: Int32 = 0
        var downAt: Microseconds = 0
        var liftedAt: Microseconds = 0
        var lifted = false
        /// At the last step while it was down: a gesture with `delaysTouchesEnded` was still possible.
        var liftWouldBeHeld = false
    }

    @exclusivity(unchecked) private var records = [Record](repeating: Record(), count: ContactTable.capacity)
    /// Per view: touches that begin in it never reach the application (it or an ancestor
    /// has `passthrough = false`).
    @exclusivity(unchecked) private var blockedViews: [Bool] = []
    @exclusivity(unchecked) var changes: [TouchChange] = []
    /// Contacts changed, passed, held and cancelled since the engine started (for status).
    @exclusivity(unchecked) private(set) var counts = TouchDeliveryCounts()

    init(views: [ViewSpec]) {
        changes.reserveCapacity(64)
        update(views: views)
    }

    func update(views: [ViewSpec]) {
        blockedViews = views.indices.map { v in
            var current: Int? = v
            while let c = current {
                if !views[c].passthrough { return true }
                current = views[c].parent
            }
            return false
        }
    }

    /// One engine step seen through the application: `claims` from every engaged gesture,
    /// before finished gestures are reset. Every contact whose fate is decided is finished
    /// here, so a slot the engine frees afterwards holds no undecided record.
    func observe(_ contacts: ContactTable, claims: ContactClaims, now: Microseconds) {
        contacts.taken.forEachIndex { i in
            let c = contacts.slots[i]
            let bit = ContactMask(1) << ContactMask(i)
            let live = contacts.live & bit != 0
            var r = records[i]
            if r.state == nil || r.device != c.device || r.id != c.id || r.downAt != c.downAt {
                if r.state == .shown || r.state == .endHeld { emit(.cancelled, r, c, now) }  // never left behind down
                // A remembered slot whose contact's delivery is over, or a new contact.
                guard live, contacts.began & bit != 0 else {
                    records[i].state = nil
                    return
                }
                r = Record(state: nil, device: c.device, id: c.id, downAt: c.downAt)
                let claim = claims.of(i)
                let blocked = c.hitView >= 0 && c.hitView < blockedViews.count && blockedViews[c.hitView]
                apply(DeliveryRule.arrive(blocked: blocked, claim), to: &r, c, now)
                r.liftWouldBeHeld = claim.holdEnded
                records[i] = r
                return
            }
            let claim = claims.of(i)
            let liftNow = !live && !r.lifted
            if liftNow {
                r.lifted = true
                r.liftedAt = now
            }
            let step = DeliveryRule.step(
                r.state!, lifted: !live, liftCancelled: liftNow && contacts.cancelled & bit != 0,
                moved: contacts.moved & bit != 0, heldLift: liftNow && r.liftWouldBeHeld, claim)
            apply(step, to: &r, c, now)
            if live { r.liftWouldBeHeld = claim.holdEnded }
            records[i] = r
        }
    }

    /// A contact the engine cannot track (beyond `ContactTable.capacity`): passed through
    /// as the panel reports it, since gestured must never eat a touch it does not understand.
    func passUntracked(_ contact: ScreenContact, device: DeviceID, now: Microseconds) {
        let kind: TouchChange.Kind
        switch contact.phase {
        case .began: kind = .began
        case .moved: kind = .moved
        case .stationary: return
        case .ended: kind = .ended
        case .cancelled: kind = .cancelled
        }
        if kind == .began { counts.passed += 1 }
        changes.append(TouchChange(time: now, device: device, id: contact.id, kind: kind))
    }

    private func apply(_ step: DeliveryRule.Step, to r: inout Record, _ c: TrackedContact, _ now: Microseconds) {
        let before = r.state
        if let kind = step.first { emit(kind, r, c, now) }
        if let kind = step.second { emit(kind, r, c, now) }
        r.state = step.next
        if before == nil, step.next == .held { counts.held += 1 }
    }

    private func emit(_ kind: TouchChange.Kind, _ r: Record, _ c: TrackedContact, _ now: Microseconds) {
        var delay: Microseconds = 0
        switch kind {
        case .began:
            // Since the contact went down on the panel: a frame stage's hold comes first.
            delay = now - r.downAt + c.held
            counts.passed += 1
        case .ended:
            delay = r.lifted ? now - r.liftedAt : 0
        case .cancelled:
            counts.cancelled += 1
        case .moved:
            break
        }
        changes.append(
            TouchChange(
                time: now, device: r.device, id: r.id, kind: kind, delay: delay,
                x: c.x, y: c.y, view: c.hitView))
    }
}

/// How many contacts the application was shown, had held back first, and got cancelled.
public struct TouchDeliveryCounts: Equatable, Sendable {
    /// Contacts shown to the application (at once or after being held).
    public var passed = 0
    /// Contacts whose `began` was held back (shown later or never).
    public var held = 0
    /// Contacts the application saw and then got cancelled.
    public var cancelled = 0

    public init(passed: Int = 0, held: Int = 0, cancelled: Int = 0) {
        self.passed = passed
        self.held = held
        self.cancelled = cancelled
    }
}
