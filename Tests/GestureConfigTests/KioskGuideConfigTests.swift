import GestureCore
import TestSupport
import Testing

@testable import GestureConfig

/// The kiosk quick start's config (docs/kiosk/gestures.toml, docs/KIOSK.md) keeps its
/// promise to a web page under cage, which passes no touch cancel on: no gesture takes a
/// touch the page was shown. (The VM tier runs the same file under Chromium.)
@Suite struct KioskGuideConfigTests {
    let ms: Int64 = 1000

    func deliver(_ build: (inout FrameBuilder) -> Void) throws -> PipelineHarness {
        try ShippedConfigDeliveryTests.deliver(config: Fixture.kioskGuideConfigPath, build)
    }

    @Test func grabsEveryPanel() throws {
        let configuration = try ConfigLoader.load(path: Fixture.kioskGuideConfigPath)
        #expect(configuration.devices.count == 1)
        #expect(configuration.devices.first?.passthrough == true)
        #expect(configuration.model.gestures.map(\.name) == ["staff", "restart"])
    }

    /// The staff's swipe in from the left edge runs and is never shown.
    @Test func theStaffSwipeIsNeverShown() throws {
        let h = try deliver { b in
            b.down(1, x: 3, y: 500, at: 0)
            b.drag(1, toX: 400, toY: 500, from: 0, duration: 300 * ms, steps: 30)
            b.up(1, at: 310 * ms)
        }
        #expect(h.log.first == "staff began")
        #expect(h.log.last == "staff ended")
        #expect(h.touchLog == [])
    }

    /// A tap away from the edge reaches the page at once, whole.
    @Test func aTapIsShownAtOnce() throws {
        let h = try deliver { b in b.tap(1, x: 1000, y: 600, at: 0) }
        #expect(h.touchLog == ["1 began", "1 ended"])
        #expect(h.touches.map(\.time) == [0, 80 * ms])
    }

    /// The three-finger press restarts the browser and leaves the page its touches: each
    /// ends at its own lift, none is cancelled.
    @Test func theThreeFingerPressLeavesItsTouches() throws {
        let h = try deliver { ShippedConfigDeliveryTests.threeFingerPress(atX: 800, into: &$0) }
        #expect(h.log.first == "restart began")
        ShippedConfigDeliveryTests.expectEachTouchEndsAtItsLift(h)
    }
}
