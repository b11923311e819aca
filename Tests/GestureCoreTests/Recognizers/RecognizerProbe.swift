import TestSupport
import Testing

@testable import GestureCore

/// What one row of a recognizer's table feeds it: a frame of contact changes at a time in
/// ms, or the recognizer's own deadline.
enum ProbeInput: CustomStringConvertible {
    enum Change {
        case down(Int32, x: Double, y: Double)
        case move(Int32, x: Double, y: Double)
        case up(Int32)
    }

    case frame(ms: Int64, [Change])
    case deadline

    static func down(_ id: Int32, x: Double, y: Double, ms: Int64) -> ProbeInput { .frame(ms: ms, [.down(id, x: x, y: y)]) }
    static func move(_ id: Int32, x: Double, y: Double, ms: Int64) -> ProbeInput { .frame(ms: ms, [.move(id, x: x, y: y)]) }
    static func up(_ id: Int32, ms: Int64) -> ProbeInput { .frame(ms: ms, [.up(id)]) }

    var description: String {
        switch self {
        case .deadline: "deadline"
        case .frame(let ms, let changes):
            "\(ms) ms: "
                + changes.map { change in
                    switch change {
                    case .down(let id, let x, let y): "down \(id) (\(x), \(y))"
                    case .move(let id, let x, let y): "move \(id) (\(x), \(y))"
                    case .up(let id): "up \(id)"
                    }
                }.joined(separator: ", ")
        }
    }
}

/// A recognizer state that names its case, so a row may expect a case without its values.
/// Written out per state (`RecognizerStates.swift`), never read from reflection.
protocol ProbedState: RecognizerState {
    var caseName: String { get }
}

/// The state a row expects: a whole value (`.exactly(.pressing(tap: 0, downAt: 0, most: 1))`),
/// compared with `==`, or a bare case name (`"tracking"`), compared by case only.
enum ExpectedState<State: ProbedState>: ExpressibleByStringLiteral, CustomStringConvertible {
    case exactly(State)
    case inCase(String)

    init(stringLiteral name: String) { self = .inCase(name) }

    func matches(_ state: State) -> Bool {
        switch self {
        case .exactly(let expected): state == expected
        case .inCase(let name): state.caseName == name
        }
    }

    var description: String {
        switch self {
        case .exactly(let state): "\(state)"
        case .inCase(let name): name
        }
    }
}

/// One row of a recognizer's state table: the inputs that bring a fresh recognizer to a
/// state, that state, one more input, and the state and verdict it must lead to.
struct TransitionRow<State: ProbedState> {
    var before: [ProbeInput] = []
    var state: ExpectedState<State>
    var input: ProbeInput
    var next: ExpectedState<State>
    var verdict: String
    var sourceLocation: SourceLocation

    init(
        _ state: ExpectedState<State>, after before: [ProbeInput] = [], _ input: ProbeInput,
        _ next: ExpectedState<State>, _ verdict: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.before = before
        self.state = state
        self.input = input
        self.next = next
        self.verdict = verdict
        self.sourceLocation = sourceLocation
    }
}

/// Drives one recognizer as the engine does for a gesture that receives every contact of the
/// default test panel (1000 x 600 px, 1 px = 0.25 mm): the same `ContactTable` and masks,
/// `didBegin` after a `began` (as if the engine accepted it), the deadline when asked.
final class RecognizerProbe<R: Recognizer & FailingRecognizer> where R.State: ProbedState {
    let recognizer: R
    private let contacts = ContactTable()
    private let geometry: DeviceGeometry
    private let screen: ScreenSize
    private var slots: [Int32: Int] = [:]
    private var received: ContactMask = 0
    private var now: Microseconds = 0

    init(_ recognizer: R) {
        self.recognizer = recognizer
        let panel = FrameBuilder()
        screen = panel.screen
        geometry = DeviceGeometry(screen: panel.screen, x: panel.x, y: panel.y, mapping: .identity)
    }

    var state: R.State { recognizer.state }

    /// Feeds `input`; the verdict's case name.
    @discardableResult
    func feed(_ input: ProbeInput) -> String {
        let verdict: RecognizerVerdict
        switch input {
        case .deadline:
            guard let deadline = recognizer.deadline else { return "no deadline" }
            now = deadline
            verdict = recognizer.expire(recognizerInput())
        case .frame(let ms, let changes):
            now = ms * 1000
            contacts.startFrame()
            for change in changes { apply(change) }
            contacts.live &= ~(contacts.ended | contacts.cancelled)
            verdict = recognizer.update(recognizerInput())
        }
        if case .began = verdict { recognizer.didBegin() }
        return Self.name(verdict)
    }

    /// Runs every row of `table` on a fresh recognizer from `make`.
    static func check(_ table: [TransitionRow<R.State>], _ make: () -> R) {
        for row in table {
            let probe = RecognizerProbe(make())
            for input in row.before { probe.feed(input) }
            #expect(row.state.matches(probe.state), "before \(row.input)", sourceLocation: row.sourceLocation)
            let verdict = probe.feed(row.input)
            #expect(
                row.next.matches(probe.state) && verdict == row.verdict,
                "\(row.state) + \(row.input): got \(probe.state), \(verdict)", sourceLocation: row.sourceLocation)
        }
    }

    private static func name(_ verdict: RecognizerVerdict) -> String {
        switch verdict {
        case .none: "none"
        case .changed: "changed"
        case .recognized: "recognized"
        case .began: "began"
        case .ended: "ended"
        case .failed: "failed"
        }
    }

    private func apply(_ change: ProbeInput.Change) {
        switch change {
        case .down(let id, let x, let y):
            guard let i = contacts.takeSlot() else { preconditionFailure("no free slot") }
            let bit = ContactMask(1) << ContactMask(i)
            slots[id] = i
            contacts.slots[i] = TrackedContact(id: id, hitView: 0, downAt: now)
            place(i, x: x, y: y, start: true)
            contacts.began |= bit
            contacts.live |= bit
            received |= bit
        case .move(let id, let x, let y):
            let i = slots[id]!
            place(i, x: x, y: y, start: false)
            contacts.moved |= ContactMask(1) << ContactMask(i)
        case .up(let id):
            contacts.ended |= ContactMask(1) << ContactMask(slots[id]!)
            slots[id] = nil
        }
    }

    private func place(_ i: Int, x: Double, y: Double, start: Bool) {
        contacts.slots[i].x = x
        contacts.slots[i].y = y
        contacts.slots[i].mmX = x * geometry.mmPerPixelX
        contacts.slots[i].mmY = y * geometry.mmPerPixelY
        guard start else { return }
        contacts.slots[i].startX = x
        contacts.slots[i].startY = y
        contacts.slots[i].startMMX = contacts.slots[i].mmX
        contacts.slots[i].startMMY = contacts.slots[i].mmY
    }

    private func recognizerInput() -> RecognizerInput {
        RecognizerInput(
            time: now, contacts: contacts,
            mask: received & (contacts.live | contacts.ended | contacts.cancelled),
            live: received & contacts.live, began: received & contacts.began,
            geometry: geometry, screen: screen)
    }
}
