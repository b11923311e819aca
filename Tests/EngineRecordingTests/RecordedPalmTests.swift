import GestureCore
import TestSupport
import Testing
import TouchInput

/// A real recording edited in memory so that its finger becomes a palm (`MT_TOOL_PALM`)
/// mid-drag, as a panel with palm detection reports a hand landing on the glass.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct RecordedPalmTests {
    /// The Atmel panel's 2.2 s one-finger drag up and back down (SOURCES.md #2).
    static let drag = "atmel-maxtouch-1-finger-drag-up-down.evemu"

    /// Adds `ABS_MT_TOOL_TYPE = MT_TOOL_PALM` to the first frame at or after `time` (one
    /// finger: its slot is the current one throughout); returns that frame's time.
    static func palm(at time: Int64, in events: inout [RawInputEvent]) -> Int64 {
        let report = events.firstIndex { $0.time >= time && $0.type == InputCodes.evSyn && $0.code == InputCodes.synReport }!
        events.insert(
            RawInputEvent(type: InputCodes.evAbs, code: InputCodes.absMTToolType, value: 2, time: events[report].time), at: report)
        return events[report + 1].time
    }

    func pan(_ m: inout ModelBuilder) {
        m.gesture("pan", .pan)
        m.gesture("tap", .tap)
    }

    @Test func theDragIsAPanThatEnds() throws {
        let r = try Replay(Self.drag, pan)
        #expect(r.log.first == "pan began" && r.log.last == "pan ended")
        #expect(r.count("pan began") == 1)
    }

    @Test func aFingerBecomingAPalmMidDragCancelsThePanAndNothingFollows() throws {
        var palmAt: Int64 = 0
        let r = try Replay(Self.drag, edit: { palmAt = Self.palm(at: 1_100_000, in: &$0) }, pan)
        #expect(palmAt >= 1_100_000 && palmAt < 1_200_000)
        #expect(r.log.first == "pan began")
        #expect(r.log.last == "pan cancelled")
        #expect(r.count("pan began") == 1 && r.count("pan cancelled") == 1)
        #expect(!r.log.contains("tap recognized"))
        let cancelled = try #require(r.events.last)
        #expect(cancelled.time == palmAt)
        // A million microseconds of drag after the palm: not one event from them.
        #expect(r.events.allSatisfy { $0.time <= palmAt })
        #expect(r.traceLog.contains("[root/pan] changed -> cancelled (a touch became a palm)"))
        #expect(r.engine.snapshot().engineBugs == 0)
    }

    @Test func aContactThatIsAPalmFromItsFirstFrameBeginsNothing() throws {
        let r = try Replay(Self.drag, edit: { _ = Self.palm(at: 0, in: &$0) }, pan)
        #expect(r.log.isEmpty)
        #expect(r.trace.isEmpty)
    }
}
