import Testing

@testable import GestureCore

/// The one table of legal phase changes (`GestureRuntime.Phase.allows`).
@Suite struct TransitionTests {
    typealias Phase = GestureRuntime.Phase

    @Test func exactlyTheArbitrationsMovesAreLegal() {
        let phases: [Phase] = [.possible, .pending, .active, .finished]
        var legal: [String] = []
        for from in phases {
            for to in phases {
                for state in GestureState.allCases where from.allows(to, as: state) { legal.append("\(from) -> \(to) \(state)") }
            }
        }
        #expect(
            legal.sorted() == [
                "active -> finished cancelled", "active -> finished ended",
                "finished -> possible possible",
                "pending -> active began", "pending -> finished failed", "pending -> finished recognized",
                "possible -> active began", "possible -> finished failed", "possible -> finished recognized",
                "possible -> pending pending",
            ])
    }

    @Test func anIllegalTransitionReadsAsAnEngineBug() {
        let record = TraceRecord(time: 0, gesture: 0, view: 0, from: .began, to: .failed, reason: .illegalTransition)
        #expect(record.reason.description == "engine bug: illegal transition, refused")
    }
}
