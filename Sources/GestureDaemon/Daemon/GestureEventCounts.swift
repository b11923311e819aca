import GestureCore

/// How many events each gesture of the running model emitted, by state, for `status`
/// and the metrics. Counting is an increment in a table sized when the model is set, so
/// the event path allocates nothing; a reload carries a gesture's counts over when it
/// continues (by name, as the engine carries its recognitions).
struct GestureEventCounts {
    private static let states = GestureState.allCases.count
    private var counts: [Int]

    init(gestures: Int) { counts = Array(repeating: 0, count: gestures * Self.states) }

    /// The counts under a new model: `continuing[i]` is the old index of new gesture `i`.
    func continued(_ continuing: [Int?]) -> GestureEventCounts {
        var next = GestureEventCounts(gestures: continuing.count)
        for (new, old) in continuing.enumerated() {
            guard let old else { continue }
            for state in 0..<Self.states { next.counts[new * Self.states + state] = counts[old * Self.states + state] }
        }
        return next
    }

    mutating func count(_ event: GestureEvent) {
        let index = event.gesture * Self.states + Int(event.state.rawValue)
        if counts.indices.contains(index) { counts[index] += 1 }
    }

    subscript(gesture: Int, state: GestureState) -> Int {
        let index = gesture * Self.states + Int(state.rawValue)
        return counts.indices.contains(index) ? counts[index] : 0
    }
}
