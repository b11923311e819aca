import GestureCore
import TestSupport
import Testing
import TouchInput

/// Every real recording of ../shared/recordings through a swipe in all four directions and a
/// pan that requires it to fail (the kiosk pairing): the swipes recognized, with their
/// directions, are the ones a person watching the trace names, and each row says why.
///
/// Distances are physical. A panel without a plausible resolution gets the size of the
/// screen it is most likely part of (`sizeMM`, as its `[[device]]` entry would), stated per
/// row; with the "1 pt = 1 px of the panel's own axis range" fallback a 32768-unit eGalax
/// would make a 1 mm wiggle a 20 mm stroke.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct RecordedSwipeTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var file: String
        var desc: String? = nil
        /// The panel's size when its resolution is not plausible, and where it comes from.
        var sizeMM: (width: Double, height: Double)? = nil
        /// (ms since the first frame, direction) of every swipe recognized.
        var swipes: [(ms: Int, direction: Directions)]
        /// What a person watching the trace sees (`gesturectl touches`), stroke by stroke.
        var why: String

        var testDescription: String { file }
    }

    static let atmel = (width: 152.0, height: 91.0)  // 800x480 embedded board: a 7-inch 5:3 panel (assumed)

    static let rows: [Row] = [
        Row(
            file: "atmel-maxtouch-1-finger-fast-taps.evemu", sizeMM: atmel, swipes: [],
            why: "nine taps without motion"),
        Row(
            file: "atmel-maxtouch-1-finger-drag-up-down.evemu", sizeMM: atmel, swipes: [],
            why: "a 2.2 s drag up and back down at about 35 mm/s: a drag from its first 4 mm"),
        Row(
            file: "atmel-maxtouch-1-finger-long-drag-18s.evemu", sizeMM: atmel, swipes: [(194, .up)],
            why: "an 18 s drawing that opens with a straight 16 mm stroke up at 85 mm/s in its first 200 ms: "
                + "a slow swipe up (straight, faster than min_speed), recognized as UIKit does, before the lift"),
        Row(file: "atmel-maxtouch-2-finger-tap.evemu", sizeMM: atmel, swipes: [], why: "two fingers, no motion"),
        Row(
            file: "atmel-maxtouch-4-finger-drag-down.evemu", sizeMM: atmel, swipes: [],
            why: "four fingers: not a one-finger swipe"),
        Row(
            file: "dell-canvas-advanced-silicon-touch-2-4-5-finger.evemu", swipes: [],
            why: "multi-finger groups, then a fast one-finger flick up-right, 89 mm right and 73 mm up in 0.33 s: "
                + "39 deg from horizontal, a diagonal, not within 30 deg of any direction"),
        Row(
            file: "ep0430m09-2-finger-scroll-down.evemu", sizeMM: (94, 56), swipes: [],
            why: "two fingers (4.3-inch 5:3 panel, assumed)"),
        Row(file: "ep0430m09-4-finger-drag-down.evemu", sizeMM: (94, 56), swipes: [], why: "four fingers"),
        Row(
            file: "google-pixel-tablet-nvt-1-finger-swipe.evemu", swipes: [(109, .up)],
            why: "a fling up (27 deg left of vertical) after a 13 mm hook to the right"),
        Row(
            file: "hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu", swipes: [],
            why: "ghost contacts appearing for one frame: no stroke"),
        Row(
            file: "hid-devices-atmel-03eb-8409-diagonal-drag-2finger-10finger.evemu", swipes: [],
            why: "a 4.4 s corner-to-corner drag at 26 mm/s, then two and ten fingers"),
        Row(
            file: "hid-devices-egalax-0eef-72fa-drag-pinch-in-rotate-4finger.evemu", sizeMM: (344, 194), swipes: [],
            why: "a 2 s corner-to-corner drag starting at 40 mm/s, a pinch, a slow one-finger diagonal "
                + "(15-inch 16:9 kiosk panel, assumed)"),
        Row(
            file: "hid-devices-elan-04f3-200a-drag-pinch-out-rotate-10finger.evemu", swipes: [(103, .left)],
            why: "the first stroke opens with 30 mm straight left in 150 ms (about 200 mm/s), a flick left, "
                + "before it wanders for 2 s; the pinch's first finger and the ten fingers move off axis"),
        Row(
            file: "hid-devices-lg-1fd2-0064-slow-pinch-2slot.evemu", sizeMM: (509, 286), swipes: [(192, .down)],
            why: "a 1.3 s stroke that opens with 17 mm down (8 deg off vertical) at 87 mm/s in 190 ms: a slow "
                + "swipe down; then a slow pinch and a press (23-inch 16:9 monitor, assumed)"),
        Row(
            file: "hid-devices-ntrig-1b96-0c01-drag-2finger-10finger.evemu", swipes: [],
            why: "a 4.6 s corner-to-corner drag at 15 mm/s, then two and ten fingers"),
        Row(
            file: "hid-devices-pqlabs-1ef1-0001-tracking-id-churn.evemu", swipes: [],
            why: "13 mm up in 150 ms, a pause, then a 3 s drag: the pause brings it under min_speed before "
                + "it has gone the distance a stroke needs that early; then two-finger pinches"),
        Row(
            file: "hid-devices-stantum-1f87-0002-pinch-rotate-10finger.evemu", sizeMM: (203, 152),
            swipes: [(155, .right), (7123, .right)],
            why: "a stroke opening with 29 mm right (6 deg off) in 200 ms and one at 7 s with 15 mm right at "
                + "62 mm/s: swipes right, then drags; the rest is two and ten fingers (10-inch 4:3, assumed)"),
        Row(
            file: "nexus4-touch_dev-1-2-3-4-finger.events", desc: "nexus4-touch_dev.desc", sizeMM: (61.4, 102.4),
            swipes: [],
            why: "a 1.3 s stroke that loops left and up at under 100 mm/s before running down: no straight "
                + "stroke a person would call a swipe (Nexus 4, 4.7-inch 768x1280)"),
        Row(
            file: "ntrig-protocol-A-2-finger-touch-release.events", desc: "ntrig-protocol-A.desc",
            sizeMM: (261, 163), swipes: [], why: "two resting fingers (12.1-inch 16:10, assumed)"),
        Row(
            file: "quanta-optical-1-finger-drags-and-tap.events", desc: "quanta-optical.desc", sizeMM: (509, 286),
            swipes: [(10392, .right), (12704, .right)],
            why: "slow drags and touches; the strokes at 10.2 s and 12.5 s open with 16 mm right (7 and 17 deg "
                + "off) at 65-70 mm/s, slow swipes right, before they drag on (23-inch 16:9 all-in-one, assumed)"),
    ]

    @Test(arguments: rows)
    func theSwipesAreThoseAPersonNames(row: Row) throws {
        let r = try Replay(row.file, desc: row.desc, sizeMM: row.sizeMM) { m in
            m.gesture("swipe", .swipe) { $0.swipe.directions = [.up, .down, .left, .right] }
            m.gesture("pan", .pan)
            m.require("pan", toFail: "swipe")
        }
        let start = try #require(r.frames.first).time
        let swipes = r.events(of: "swipe").filter { $0.state == .recognized }
        let found = swipes.map { "\(($0.time - start + 500) / 1000) ms \($0.direction.rawValue)" }
        #expect(found == row.swipes.map { "\($0.ms) ms \($0.direction.rawValue)" }, "\(row.why)")
    }

    /// With the four diagonals allowed too (lisgd's UR, UL, DR, DL), each stroke is the
    /// direction it is nearest when it is decided: the Dell's flick, 39 deg above horizontal,
    /// is up-right (6 deg off the diagonal). The Pixel's fling opens with a 19 mm hook at
    /// 40 deg above horizontal at 234 mm/s, itself a swipe up-right at 83 ms; UIKit's four
    /// leave the hook undecided (40-50 deg off each) and see the fling up, which is why they
    /// stay the default. The Atmel's corner-to-corner drag stays a drag (26 mm/s).
    @Test(arguments: [
        ("dell-canvas-advanced-silicon-touch-2-4-5-finger.evemu", [Directions.upRight]),
        ("google-pixel-tablet-nvt-1-finger-swipe.evemu", [.upRight]),
        ("hid-devices-atmel-03eb-8409-diagonal-drag-2finger-10finger.evemu", []),
    ])
    func diagonalsAreTheNearestDirection(file: String, directions: [Directions]) throws {
        let r = try Replay(file) { m in
            m.gesture("swipe", .swipe) { $0.swipe.directions = Directions(Directions.all.map(\.direction)) }
            m.gesture("pan", .pan)
            m.require("pan", toFail: "swipe")
        }
        let swipes = r.events(of: "swipe").filter { $0.state == .recognized }
        #expect(swipes.map(\.direction) == directions, "\(r.traceLog.filter { $0.contains("/swipe]") })")
    }
}
