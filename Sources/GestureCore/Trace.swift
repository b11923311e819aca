/// Why a recognizer changed state. Plain numbers and indices: formatted only when someone
/// reads the trace (`description` names gestures by index; `describe(in:)` by name).
public enum TraceReason: Equatable, Sendable, CustomStringConvertible {
    /// Moved `mm` > `limit` mm (movements compare exclusively).
    case moved(mm: Double, limit: Double)
    /// Moved `mm` > `limit` mm, enough to begin.
    case movedEnough(mm: Double, limit: Double)
    case tooManyTouches(Int, allowed: Int)
    case tooFewTouches(Int, required: Int)
    /// Held `held` µs < `minimum` µs.
    case heldTooShort(held: Microseconds, minimum: Microseconds)
    /// Held `held` µs >= `minimum` µs (durations compare inclusively).
    case heldLongEnough(held: Microseconds, minimum: Microseconds)
    case tapsCompleted(Int)
    /// No next tap within the interval, µs.
    case tapIntervalElapsed(Microseconds)
    /// The next tap went down `mm` > `limit` mm from the previous one.
    case tapTooFar(mm: Double, limit: Double)
    /// Swiped `mm` at `speed` mm/s in one direction.
    case swiped(Directions, mm: Double, speed: Double)
    case swipeTooSlow(speed: Double, minimum: Double)
    case swipeDeadline(Microseconds)
    case swipeReversed(mm: Double)
    /// Moved `mm` > `limit` mm across every direction it could swipe in.
    case swipeSideways(mm: Double, limit: Double)
    case offAxis(radians: Double, limit: Double)
    case notAtEdge
    case scaleChanged(mm: Double, limit: Double)
    case rotated(radians: Double, limit: Double)
    case liftedBeforeRecognized
    case allLifted
    case contactsCancelled
    /// The panel reported one of its contacts as a palm (`MT_TOOL_PALM`): a cancelled touch.
    case becamePalm
    /// A gesture that had already begun or recognized and shares a contact.
    case preventedBy(Int)
    /// Waiting: a failure requirement on this gesture is still possible.
    case requiredFailureOf(Int)
    /// The gesture it waited on failed: the held recognition happens now.
    case requirementFailed(Int)
    /// The gesture it waited on recognized or began.
    case requirementRecognized(Int)
    case shouldBeginRefused
    case changed
    case disabled
    case modelReplaced
    case deviceDetached
    /// Every contact it received has lifted.
    case reset
    /// The engine was asked for a phase change its rules forbid (the record's from -> to): a
    /// bug in the engine. The change was refused.
    case illegalTransition

    public var description: String { describe(name: { "gesture \($0)" }) }

    /// The reason with gestures named from `model`.
    public func describe(in model: GestureModel) -> String {
        describe(name: { $0 >= 0 && $0 < model.gestures.count ? model.gestures[$0].name : "gesture \($0)" })
    }

    private func describe(name: (Int) -> String) -> String {
        switch self {
        case .moved(let mm, let limit): "moved \(format(mm)) mm > \(format(limit)) mm"
        case .movedEnough(let mm, let limit): "moved \(format(mm)) mm > \(format(limit)) mm"
        case .tooManyTouches(let n, let allowed): "\(n) touches > \(allowed)"
        case .tooFewTouches(let n, let required): "\(n) touches < \(required)"
        case .heldTooShort(let held, let minimum): "held \(milliseconds(held)) ms < \(milliseconds(minimum)) ms"
        case .heldLongEnough(let held, let minimum): "held \(milliseconds(held)) ms >= \(milliseconds(minimum)) ms"
        case .tapsCompleted(let n): "\(n) tap\(n == 1 ? "" : "s")"
        case .tapIntervalElapsed(let interval): "no next tap within \(milliseconds(interval)) ms"
        case .tapTooFar(let mm, let limit): "next tap \(format(mm)) mm > \(format(limit)) mm away"
        case .swiped(let direction, let mm, let speed):
            "swiped \(Self.name(direction)) \(format(mm)) mm at \(format(speed)) mm/s"
        case .swipeTooSlow(let speed, let minimum): "\(format(speed)) mm/s < \(format(minimum)) mm/s"
        case .swipeDeadline(let deadline): "not swiped within \(milliseconds(deadline)) ms"
        case .swipeReversed(let mm): "reversed by \(format(mm)) mm"
        case .swipeSideways(let mm, let limit): "moved \(format(mm)) mm sideways > \(format(limit)) mm"
        case .offAxis(let radians, let limit):
            "off axis by \(format(radians * 180 / .pi)) deg > \(format(limit * 180 / .pi)) deg"
        case .notAtEdge: "first touch not at an edge"
        case .scaleChanged(let mm, let limit): "span changed \(format(mm)) mm > \(format(limit)) mm"
        case .rotated(let radians, let limit): "rotated \(format(radians)) rad > \(format(limit)) rad"
        case .liftedBeforeRecognized: "lifted before recognized"
        case .allLifted: "all touches lifted"
        case .contactsCancelled: "touches cancelled"
        case .becamePalm: "a touch became a palm"
        case .preventedBy(let g): "prevented by \(name(g))"
        case .requiredFailureOf(let g): "required failure of \(name(g))"
        case .requirementFailed(let g): "\(name(g)) failed"
        case .requirementRecognized(let g): "\(name(g)) recognized"
        case .shouldBeginRefused: "should_begin refused"
        case .changed: "changed"
        case .disabled: "disabled"
        case .modelReplaced: "configuration replaced"
        case .deviceDetached: "device removed"
        case .reset: "reset"
        case .illegalTransition: "engine bug: illegal transition, refused"
        }
    }

    static func name(_ d: Directions) -> String { d.name ?? "?" }
}

/// Two decimals at most, without Foundation's formatter.
private func format(_ value: Double) -> String {
    let hundredths = (value * 100).rounded()
    guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "\(value)" }
    let n = Int64(hundredths)
    let sign = n < 0 ? "-" : ""
    let whole = abs(n) / 100
    let frac = abs(n) % 100
    if frac == 0 { return "\(sign)\(whole)" }
    return frac % 10 == 0 ? "\(sign)\(whole).\(frac / 10)" : "\(sign)\(whole).\(frac < 10 ? "0" : "")\(frac)"
}

private func milliseconds(_ us: Microseconds) -> String { format(Double(us) / 1000) }

/// One state transition of one gesture, recorded while `GestureEngine.traceEnabled`.
/// Printed as `[view/gesture] from -> to (reason)` by whoever resolves the names.
public struct TraceRecord: Equatable, Sendable {
    public var time: Microseconds
    public var gesture: Int
    public var view: Int
    public var from: GestureState
    public var to: GestureState
    public var reason: TraceReason

    public init(time: Microseconds, gesture: Int, view: Int, from: GestureState, to: GestureState, reason: TraceReason) {
        self.time = time
        self.gesture = gesture
        self.view = view
        self.from = from
        self.to = to
        self.reason = reason
    }

    /// `[view/gesture] from -> to (reason)` with names from `model`.
    public func describe(in model: GestureModel) -> String {
        let g = gesture < model.gestures.count ? model.gestures[gesture].name : "gesture \(gesture)"
        let v = view < model.views.count ? model.views[view].name : "view \(view)"
        return "[\(v)/\(g)] \(from) -> \(to) (\(reason.describe(in: model)))"
    }
}
