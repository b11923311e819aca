import GestureCore
import TestSupport
import Testing

/// The seeds' chain of failure requirements on a real panel.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct RecordedChainTests {
    @Test func nineFastTapsThroughTapDoubleTripleAreThreeTripleTapsAndNothingElse() throws {
        let r = try Replay("atmel-maxtouch-1-finger-fast-taps.evemu") { m in
            m.gesture("tap", .tap)
            m.gesture("double", .tap) { $0.tap.taps = 2 }
            m.gesture("triple", .tap) { $0.tap.taps = 3 }
            m.require("tap", toFail: "double")
            m.require("double", toFail: "triple")
        }
        #expect(r.log == ["triple recognized", "triple recognized", "triple recognized"])
        // Each triple excludes the single tap held by the double before the double's failure could release it.
        #expect(r.traceLog.filter { $0 == "[root/tap] pending -> failed (prevented by triple)" }.count == 3)
    }
}
