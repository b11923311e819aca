/// A continuous recognizer (pan, edge pan, long press, pinch, rotation): what they all do
/// once they began (docs/SEMANTICS.md, "States"). Each keeps its own `State` and its own
/// rule for beginning; the tail after began is this one.
protocol ContinuousRecognizer: FailingRecognizer where State: ContinuousState {
    /// Where its events are: the centroid of its contacts.
    var location: Location { get set }
}

extension ContinuousRecognizer {
    /// Begins: `active`, and the verdict that asks the engine to accept it.
    func begin(_ reason: TraceReason) -> RecognizerVerdict {
        state = .active
        return .began(reason)
    }

    /// A frame once it began: `ended` when `ending` (its contacts have lifted), located at
    /// the contacts of `mask` where they were last; else `changed`, located at `live`.
    func follow(_ input: RecognizerInput, live: ContactMask, mask: ContactMask, ending: Bool) -> RecognizerVerdict {
        // Read, changed and written back rather than changed in place: in place goes through
        // the requirement's `modify` coroutine, whose frame unoptimized builds allocate.
        var location = location
        defer { self.location = location }
        if ending {
            state = .finished
            location.update(input, mask)
            return .ended(.allLifted)
        }
        location.update(input, live)
        return .changed
    }
}

/// A continuous recognizer's state enum: it has an `active` case, for once it began.
protocol ContinuousState: RecognizerState {
    static var active: Self { get }
}
