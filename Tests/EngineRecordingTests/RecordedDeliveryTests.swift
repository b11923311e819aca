import GestureCore
import TestSupport
import Testing
import TouchInput

/// Touch delivery over real touchscreens (../shared/recordings): what the application
/// underneath would see of each contact.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct RecordedDeliveryTests {
    func kinds(_ r: Replay) -> [TouchChange.Kind: Int] {
        r.touches.reduce(into: [:]) { $0[$1.kind, default: 0] += 1 }
    }

    @Test func withoutGesturesEveryTouchPassesWhole() throws {
        let r = try Replay("atmel-maxtouch-1-finger-fast-taps.evemu", delivery: true) { _ in }
        #expect(kinds(r)[.began] == 9)
        #expect(kinds(r)[.ended] == 9)
        #expect(kinds(r)[.cancelled] == nil)
        #expect(r.touches.allSatisfy { $0.delay == 0 })
    }

    @Test func doubleTapsAreCancelledAndTheLoneLastTapIsDeliveredLate() throws {
        let r = try Replay("atmel-maxtouch-1-finger-fast-taps.evemu", delivery: true) { m in
            m.gesture("double-tap", .tap) { $0.tap.taps = 2 }
        }
        #expect(r.count("double-tap recognized") == 4)
        // Four double taps: eight touches shown and cancelled, never lifted.
        #expect(kinds(r)[.began] == 9)
        #expect(kinds(r)[.cancelled] == 8)
        // The ninth lift waited for a second tap that never came.
        let last = try #require(r.touches.last)
        #expect(last.kind == .ended)
        #expect(last.delay == 350_000 + 1)
    }

    @Test func aTwoFingerTapThatDelaysBeganTouchesShowsNothing() throws {
        let r = try Replay("atmel-maxtouch-2-finger-tap.evemu", delivery: true) { m in
            m.gesture("two-finger-tap", .tap) {
                $0.tap.touches = 2
                $0.delivery.delaysTouchesBegan = true
            }
        }
        #expect(r.log == ["two-finger-tap recognized"])
        #expect(r.touches.isEmpty)
        #expect(r.engine.touchDeliveryCounts.held == 2)
    }

    @Test func thePixelFlickIsCancelledWhenTheSwipeRecognizes() throws {
        let r = try Replay("google-pixel-tablet-nvt-1-finger-swipe.evemu", delivery: true) { m in
            m.gesture("swipe", .swipe) { $0.swipe.directions = [.up, .down, .left, .right] }
        }
        #expect(r.log == ["swipe recognized"])
        let swipe = try #require(r.events.first)
        #expect(r.touchLog.first?.hasSuffix(" began") == true)
        #expect(r.touchLog.last?.hasSuffix(" cancelled") == true)
        #expect(r.touches.last?.time == swipe.time)
        #expect(kinds(r)[.ended] == nil)
    }

    @Test func aGestureOnlyViewHidesAWholeTenFingerSession() throws {
        let r = try Replay("hid-devices-elan-04f3-200a-drag-pinch-out-rotate-10finger.evemu", delivery: true) { m in
            m.view("strip", frame: Rect(x: 0, y: 0, width: m.screen.width, height: m.screen.height), passthrough: false)
        }
        #expect(r.touches.isEmpty)
        let open = try Replay("hid-devices-elan-04f3-200a-drag-pinch-out-rotate-10finger.evemu", delivery: true) { _ in }
        #expect(kinds(open)[.began] ?? 0 >= 10)
        #expect(kinds(open)[.began] == kinds(open)[.ended])
    }

    @Test func ghostTouchesHeldByAFailingTapAreAllDeliveredWhole() throws {
        // Ghost contacts last 30-56 ms, often several at once: a tap with min_press 60 ms
        // never recognizes, and the touches it held back (those it received: a failed tap
        // takes no new ones until its own lift) reach the application late but whole.
        let r = try Replay("hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu", delivery: true) { m in
            m.gesture("tap", .tap) {
                $0.tap.minPress = 60_000
                $0.delivery.delaysTouchesBegan = true
            }
        }
        #expect(r.log.isEmpty)
        let began = r.touches.filter { $0.kind == .began }
        let held = r.engine.touchDeliveryCounts.held
        #expect(held > 0)
        #expect(began.filter { $0.delay > 0 }.count == held)
        #expect(kinds(r)[.ended] == began.count)
        #expect(kinds(r)[.cancelled] == nil)
    }
}
