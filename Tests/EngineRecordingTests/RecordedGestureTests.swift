import GestureCore
import TestSupport
import Testing
import TouchInput

/// Real touchscreens (../shared/recordings, see SOURCES.md there) through the normalizer and
/// the engine.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct RecordedGestureTests {
    @Test func nineFastTapsAreFourDoubleTapsAndALateSingleTap() throws {
        let r = try Replay("atmel-maxtouch-1-finger-fast-taps.evemu") { m in
            m.gesture("double-tap", .tap) { $0.tap.taps = 2 }
            m.gesture("tap", .tap)
            m.require("tap", toFail: "double-tap")
        }
        #expect(
            r.log == [
                "double-tap recognized", "double-tap recognized", "double-tap recognized",
                "double-tap recognized", "tap recognized",
            ])
        // res 0: distances fall back to 1 pt = 1 px, and attach said so.
        #expect(r.warning != nil)
        let single = try #require(r.events.last)
        let lift = try #require(single.delayedFrom)
        #expect(single.time == lift + 350_000 + 1)
    }

    @Test func aTwoFingerTouchAndReleaseIsATwoFingerTap() throws {
        let r = try Replay("atmel-maxtouch-2-finger-tap.evemu") { m in
            m.gesture("two-finger-tap", .tap) { $0.tap.touches = 2 }
            m.gesture("tap", .tap)
        }
        #expect(r.log == ["two-finger-tap recognized"])
        #expect(r.events.first?.touches == 2)
    }

    /// 11 units/mm: physical units. The finger first hooks right (13 mm right, 8 mm up in
    /// 66 ms) before the fling curves up-left (49 mm left, 95 mm up in 208 ms): a person sees
    /// a fling up. The swipe is judged on the stroke, so the hook decides nothing: up, with
    /// all four directions or with up alone.
    @Test(arguments: [[Directions.up, .down, .left, .right], [.up]])
    func thePixelFlickIsAnUpSwipeNotAPan(directions: [Directions]) throws {
        let r = try Replay("google-pixel-tablet-nvt-1-finger-swipe.evemu") { m in
            m.gesture("swipe", .swipe) { $0.swipe.directions = Directions(directions) }
            m.gesture("pan", .pan)
            m.require("pan", toFail: "swipe")
        }
        #expect(r.warning == nil)
        #expect(r.log == ["swipe recognized"])
        #expect(r.events.first?.direction == .up)
        // 22.7 mm up (11.5 mm right) at 109 ms: past the 17.8 mm a stroke needs that early.
        #expect(r.events.first?.time == 108_630)
    }

    @Test func ghostTouchBurstsFireNothingWithMinPress() throws {
        let guarded = try Replay("hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu") { m in
            m.gesture("swipe", .swipe) { $0.swipe.directions = [.up, .down, .left, .right] }
            m.gesture("tap", .tap) { $0.tap.minPress = 60_000 }
        }
        #expect(guarded.log.isEmpty)
        // Without min_press the same bursts are taps: the setting is what protects the kiosk.
        let bare = try Replay("hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu") { m in
            m.gesture("tap", .tap)
        }
        #expect(bare.count("tap recognized") > 0)
    }

    @Test func theSlowPinchInReachesItsRecordedScale() throws {
        let r = try Replay("hid-devices-lg-1fd2-0064-slow-pinch-2slot.evemu") { m in m.gesture("pinch", .pinch) }
        let slow = r.events.filter { $0.time > 8_000_000 && $0.time < 40_000_000 }
        #expect(slow.first?.state == .began && slow.last?.state == .ended)
        #expect(slow.filter { $0.state == .began }.count == 1)
        // SOURCES.md: 1906 -> 248 units over 34.9 s, x0.13.
        let final = try #require(slow.last)
        #expect(abs(final.scale - 0.13) < 0.01)
    }

    /// PQLabs' slot 1 gets a new tracking id about 15 times in a second during a two-finger
    /// pinch: the contact ends, and a frame or two later a new one begins.
    @Test func trackingIDChurnMidPinchNeitherEndsNorJumpsThePinch() throws {
        let file = "hid-devices-pqlabs-1ef1-0001-tracking-id-churn.evemu"
        let r = try Replay(file) { m in
            m.gesture("pinch", .pinch)
            m.gesture("rotate", .rotation)
            m.simultaneous("pinch", with: "rotate")
        }
        // The frames where a contact begins or ends.
        let recording = try EvemuRecording.read(path: SharedRecordings.path(file))
        let normalizer = try #require(TouchNormalizer(device: DeviceID(1), info: recording.info))
        var churn: Set<Int64> = []
        for event in recording.events where normalizer.feed(event) {
            if normalizer.frame.contacts.contains(where: { $0.phase == .began || $0.phase == .ended }) {
                churn.insert(normalizer.frame.time)
            }
        }

        let pinch = r.events(of: "pinch").filter { $0.time > 13_000_000 && $0.time < 14_700_000 }
        #expect(pinch.filter { $0.state == .began }.count == 1)
        #expect(pinch.filter { $0.state == .ended }.count == 1 && pinch.last?.state == .ended)
        #expect(!pinch.contains { $0.state == .cancelled })
        let during = pinch.filter { churn.contains($0.time) && $0.state == .changed }
        #expect(during.count >= 20, "the pinch lives through the churn")
        // Contacts coming and going re-baseline: they never change the scale or the rotation.
        for (previous, event) in zip(pinch, pinch.dropFirst()) where churn.contains(event.time) && event.state == .changed {
            #expect(event.scale == previous.scale, "scale jumped at \(event.time)")
        }
        let rotation = r.events(of: "rotate")
        for (previous, event) in zip(rotation, rotation.dropFirst()) where churn.contains(event.time) && event.state == .changed {
            #expect(event.rotation == previous.rotation, "rotation jumped at \(event.time)")
        }
    }
}
