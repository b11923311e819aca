import GestureCore
import TestSupport
import Testing

@testable import GestureConfig

/// What the kiosk application sees through the shipped `config/gestures.toml`, which turns
/// passthrough on: synthetic frames on a 1920 x 1080 px panel of 0.25 mm per px (as the
/// shipped rule's 476 x 268 mm), through the engine with touch delivery on, as the daemon
/// runs it for a grabbed panel.
@Suite struct ShippedConfigDeliveryTests {
    let ms: Int64 = 1000

    func deliver(_ build: (inout FrameBuilder) -> Void) throws -> PipelineHarness {
        try Self.deliver(config: Fixture.shippedConfigPath, build)
    }

    /// Frames through the config's engine with touch delivery on, as the daemon runs it for
    /// a grabbed panel of 1920 x 1080 px.
    static func deliver(config path: String, _ build: (inout FrameBuilder) -> Void) throws -> PipelineHarness {
        let configuration = try ConfigLoader.load(path: path)
        var b = FrameBuilder(screen: ScreenSize(width: 1920, height: 1080))
        build(&b)
        let h = PipelineHarness(model: configuration.model)
        h.attach(b)
        h.engine.touchDeliveryEnabled = true
        h.run(b.frames)
        h.settle()
        return h
    }

    @Test func passthroughIsOnWithReleaseCancels() throws {
        let configuration = try ConfigLoader.load(path: Fixture.shippedConfigPath)
        #expect(configuration.devices.first?.passthrough == true)
        #expect(configuration.devices.first?.cancel == .release)
    }

    /// `gesturectl check` tells per view what waits, and that an edge pan holds only the
    /// touches that land near its edge (it fails at once elsewhere).
    @Test func checkSaysWhatWaitsWhere() throws {
        let report = ConfigReport.text(of: try ConfigLoader.load(path: Fixture.shippedConfigPath))
        #expect(
            report.contains(
                """
                  map: a new touch within 4mm of the right edge of the screen is held (admin_menu: until the touch moves); touches are cancelled when admin_menu begins
                  wake_corner: a new touch is held (wake: until the touch lifts or moves, then up to 350ms for the next tap); a new touch within 4mm of the right edge of the screen is held (admin_menu: until the touch moves); a lift is held up to 350ms (wake: the next tap may come); touches are cancelled when admin_menu begins, or wake recognizes
                  device[0]: passthrough: grabbed, applications read its virtual clone; cancel = "release"
                """))
    }

    /// The staff's swipe in from the right edge opens the admin menu and is never shown.
    @Test func theEdgeSwipeIsNeverShown() throws {
        let h = try deliver { b in
            b.down(1, x: 1915, y: 500, at: 0)
            b.drag(1, toX: 1600, toY: 500, from: 0, duration: 300 * ms, steps: 30)
            b.up(1, at: 310 * ms)
        }
        #expect(h.log.contains("admin_menu began"))
        #expect(h.log.contains("admin_menu ended"))
        #expect(h.touchLog == [])
    }

    /// The double tap in the wake corner wakes the display and is never shown; a lone tap
    /// there reaches the application whole, once the double tap failed.
    @Test func theWakeDoubleTapIsNeverShown() throws {
        let h = try deliver { b in
            b.tap(1, x: 1800, y: 50, at: 0)
            b.tap(2, x: 1802, y: 52, at: 230 * ms)
            b.tap(3, x: 1800, y: 50, at: 2000 * ms)
        }
        #expect(h.log == ["wake recognized"])
        #expect(h.touchLog == ["3 began +430ms", "3 ended +350ms"])
    }

    /// A tap on the map reaches the application at once, as the panel reported it.
    @Test func aTapOnTheMapIsShownAtOnce() throws {
        let h = try deliver { b in b.tap(1, x: 1000, y: 600, at: 0) }
        #expect(h.touchLog == ["1 began", "1 ended"])
        #expect(h.touches.map(\.time) == [0, 80 * ms])
    }

    /// The map gestures drive the map through its socket and leave its touches alone: a
    /// pan on the map is shown whole, never cancelled (a cancel would be a lift that the
    /// application could take for a tap).
    @Test func aPanOnTheMapKeepsItsTouch() throws {
        let h = try deliver { b in
            b.down(1, x: 1000, y: 600, at: 0)
            b.drag(1, toX: 1100, toY: 650, from: 0, duration: 1000 * ms, steps: 50)
            b.up(1, at: 1010 * ms)
        }
        #expect(h.log.first == "map_pan began")
        #expect(h.touchLog.first == "1 began")
        #expect(h.touchLog.last == "1 ended")
        #expect(!h.touchLog.contains("1 cancelled"))
    }

    /// The three-finger press reloads the browser and leaves the application its three
    /// touches as they happened: none is cancelled (a lift a browser would click with, or a
    /// touch left down where the compositor passes no cancel), each ends at its lift.
    @Test func theThreeFingerPressLeavesItsTouches() throws {
        let h = try deliver { Self.threeFingerPress(atX: 300, into: &$0) }
        #expect(h.log.first == "reload began")
        Self.expectEachTouchEndsAtItsLift(h)
    }

    /// Three fingers from x to x + 100 px held 2.2 s and lifted together: the shipped
    /// config's and the kiosk guide's three-finger press.
    static func threeFingerPress(atX x: Double, into b: inout FrameBuilder) {
        let ms: Int64 = 1000
        b.down(1, x: x, y: 500, at: 0)
        b.down(2, x: x + 100, y: 500, at: 0)
        b.down(3, x: x + 50, y: 600, at: 0)
        b.hold(at: 1000 * ms)
        b.hold(at: 2100 * ms)
        for id in 1...3 { b.up(Int32(id), at: 2200 * ms) }
    }

    /// The press's three touches reached the application whole: each began, ended at its
    /// lift (2.2 s), and none was cancelled.
    static func expectEachTouchEndsAtItsLift(_ h: PipelineHarness, sourceLocation: SourceLocation = #_sourceLocation) {
        let lift: Int64 = 2200 * 1000
        #expect(h.touchLog.filter { $0.hasSuffix("began") }.count == 3, sourceLocation: sourceLocation)
        #expect(h.touches.filter { $0.kind == .ended }.map(\.time) == [lift, lift, lift], sourceLocation: sourceLocation)
        #expect(!h.touchLog.contains { $0.hasSuffix("cancelled") }, sourceLocation: sourceLocation)
    }
}
