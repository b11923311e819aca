import GestureCore

/// Continuous gestures' `changed` at the display's pace. UIKit coalesces the touches of a
/// display frame: a recognizer's action runs at most once per frame, with the newest
/// values (the samples between stay available as `coalescedTouches(for:)`), and `ended` or
/// `cancelled` always follows the last `changed`.
///
/// Per lane (a gesture and a period: its `on.changed` actions' `frame_rate`, or the
/// daemon's for coalescing subscribers) a `changed` is paced once a period has passed
/// since the lane last ran (its `began`, or its last paced `changed`); sooner, it waits,
/// replacing the one waiting, until the next `changed` a period after the last run, or a
/// period after it arrived (a deadline), or the gesture's `ended` or `cancelled`, which it
/// then precedes. No clock: the events' times and the deadlines (`GesturePipeline.advance`)
/// are the only time, so a replay paces as the live daemon does.
struct ChangePacer {
    private struct Lane {
        let gesture: Int
        let period: Microseconds
        /// When it last ran (nil: its gesture is not running).
        var lastRun: Microseconds?
        /// The newest `changed` not paced yet, and how many it stands for (itself included).
        var waiting: GestureEvent?
        var merged = 0

        var deadline: Microseconds? { waiting.map { max($0.time, lastRun ?? $0.time) + period } }
    }

    private var lanes: [Lane] = []
    /// `lanes[first[g]..<first[g + 1]]` are gesture g's.
    private var first: [Int] = [0]
    /// The earliest deadline of a waiting `changed`, or nil.
    private(set) var nextDeadline: Microseconds?

    init() {}

    /// Lanes for `periods[g]` of each gesture g; a lane of `previous` with the same gesture
    /// and period keeps its state (subscribers that came or went change the lanes mid-gesture).
    init(periods: [[Microseconds]], keeping previous: ChangePacer = ChangePacer()) {
        for (gesture, list) in periods.enumerated() {
            for period in list {
                lanes.append(previous.lane(gesture: gesture, period: period) ?? Lane(gesture: gesture, period: period))
            }
            first.append(lanes.count)
        }
        updateDeadline()
    }

    var isEmpty: Bool { lanes.isEmpty }

    private func lane(gesture: Int, period: Microseconds) -> Lane? {
        guard gesture + 1 < first.count else { return nil }
        for l in first[gesture]..<first[gesture + 1] where lanes[l].period == period { return lanes[l] }
        return nil
    }

    /// `event` into `outputs`, with what its lanes pace: a `changed` due now after it, the
    /// waiting ones before an `ended` or `cancelled`.
    mutating func take(_ event: GestureEvent, into outputs: inout [PipelineOutput]) {
        let g = event.gesture
        guard g + 1 < first.count, first[g] < first[g + 1] else {
            outputs.append(.event(event))
            return
        }
        switch event.state {
        case .began:
            outputs.append(.event(event))
            for l in first[g]..<first[g + 1] {
                lanes[l].lastRun = event.time
                lanes[l].waiting = nil
                lanes[l].merged = 0
            }
        case .changed:
            outputs.append(.event(event))
            for l in first[g]..<first[g + 1] {
                lanes[l].waiting = event
                lanes[l].merged += 1
                let due = lanes[l].lastRun.map { event.time >= $0 + lanes[l].period } ?? true
                if due { pace(l, at: event.time, into: &outputs) }
            }
        case .ended, .cancelled:
            for l in first[g]..<first[g + 1] {
                if lanes[l].waiting != nil { pace(l, at: event.time, into: &outputs) }
                lanes[l].lastRun = nil
            }
            outputs.append(.event(event))
        default:
            outputs.append(.event(event))
        }
        updateDeadline()
    }

    /// Paces every waiting `changed` whose deadline is at or before `time`, at its deadline.
    mutating func expire(upTo time: Microseconds, into outputs: inout [PipelineOutput]) {
        for l in lanes.indices {
            if let deadline = lanes[l].deadline, deadline <= time { pace(l, at: deadline, into: &outputs) }
        }
        updateDeadline()
    }

    /// Paces every waiting `changed` now and forgets the running gestures (a reload renumbers them).
    mutating func flushAll(at time: Microseconds, into outputs: inout [PipelineOutput]) {
        for l in lanes.indices where lanes[l].waiting != nil { pace(l, at: time, into: &outputs) }
        for l in lanes.indices { lanes[l].lastRun = nil }
        nextDeadline = nil
    }

    private mutating func pace(_ l: Int, at time: Microseconds, into outputs: inout [PipelineOutput]) {
        guard let event = lanes[l].waiting else { return }
        outputs.append(.paced(event, period: lanes[l].period, coalesced: lanes[l].merged))
        lanes[l].lastRun = time
        lanes[l].waiting = nil
        lanes[l].merged = 0
    }

    private mutating func updateDeadline() {
        var earliest: Microseconds?
        for l in lanes.indices {
            if let deadline = lanes[l].deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        nextDeadline = earliest
    }
}
