import GestureConfig
import GestureCore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shipped kiosk's gestures do what its comments say, on a synthetic panel the size of
/// its screen (FrameBuilder: 0.25 mm per px).
@Suite struct ShippedConfigBehaviourTests {
    static let ms: Int64 = 1_000

    func run(_ build: (inout FrameBuilder) -> Void) throws -> PipelineHarness {
        let configuration = try ConfigLoader.load(path: Fixture.shippedConfigPath)
        var frames = FrameBuilder(screen: configuration.model.screen)
        build(&frames)
        let harness = PipelineHarness(model: configuration.model)
        harness.attach(frames)
        harness.run(frames.frames)
        harness.settle()
        return harness
    }

    /// Over the map, too: the edge swipe wins over the map's pan.
    @Test func swipeInFromTheRightEdgeOpensTheAdminMenu() throws {
        let h = try run { f in
            f.down(1, x: 1915, y: 500, at: 0)
            f.drag(1, toX: 1500, toY: 510, from: 0, duration: 400 * Self.ms, steps: 20)
            f.up(1, at: 450 * Self.ms)
        }
        #expect(h.log.first == "admin_menu began")
        #expect(h.log.last == "admin_menu ended")
        #expect(!h.log.contains { $0.hasPrefix("map_pan") })
    }

    @Test func aDragOnTheMapPansIt() throws {
        let h = try run { f in
            f.down(1, x: 1000, y: 500, at: 0)
            f.drag(1, toX: 1200, toY: 520, from: 0, duration: 800 * Self.ms, steps: 20)
            f.up(1, at: 850 * Self.ms)
        }
        #expect(h.log.first == "map_pan began")
        #expect(h.log.last == "map_pan ended")
    }

    @Test func threeFingersHeldTwoSecondsReload() throws {
        let h = try run { f in
            f.down(1, x: 300, y: 500, at: 0)
            f.down(2, x: 400, y: 500, at: 0)
            f.down(3, x: 350, y: 600, at: 0)
            f.hold(at: 1000 * Self.ms)
            f.hold(at: 2100 * Self.ms)
            f.up(1, at: 2200 * Self.ms)
            f.up(2, at: 2200 * Self.ms)
            f.up(3, at: 2200 * Self.ms)
        }
        #expect(h.log.first == "reload began")
        #expect(h.events.first?.time == 2000 * Self.ms)
    }

    @Test func aDoubleTapInTheCornerWakesAndAGhostDoesNot() throws {
        let h = try run { f in
            f.tap(1, x: 1850, y: 50, at: 0, duration: 80 * Self.ms)
            f.tap(2, x: 1852, y: 52, at: 250 * Self.ms, duration: 80 * Self.ms)
            // A ghost-length double tap later: 40 ms contacts.
            f.tap(3, x: 1850, y: 50, at: 3000 * Self.ms, duration: 40 * Self.ms)
            f.tap(4, x: 1850, y: 50, at: 3200 * Self.ms, duration: 40 * Self.ms)
        }
        #expect(h.log == ["wake recognized"])
    }

    @Test func aQuickFlickUpOnTheMapIsTheNextFloorNotAPan() throws {
        let h = try run { f in
            f.down(1, x: 1000, y: 800, at: 0)
            f.drag(1, toX: 1005, toY: 600, from: 0, duration: 150 * Self.ms, steps: 10)  // 50 mm in 150 ms
            f.up(1, at: 160 * Self.ms)
        }
        #expect(h.log == ["next_floor recognized"])
    }

    @Test func twoFingersOnTheMapZoomAndRotateTogether() throws {
        let h = try run { f in
            f.down(1, x: 1000, y: 500, at: 0)
            f.down(2, x: 1200, y: 500, at: 0)
            for step in 1...20 {
                let t = Int64(step) * 20 * Self.ms
                let angle = Double(step) * 0.02  // radians, clockwise
                let r = 100 + Double(step) * 5  // spreading
                f.move(1, x: 1100 - r * cos(angle), y: 500 - r * sin(angle), at: t)
                f.move(2, x: 1100 + r * cos(angle), y: 500 + r * sin(angle), at: t)
            }
            f.up(1, at: 450 * Self.ms)
            f.up(2, at: 450 * Self.ms)
        }
        #expect(h.log.contains("map_zoom began"))
        #expect(h.log.contains("map_rotate began"))
        #expect(h.log.contains("map_zoom ended") && h.log.contains("map_rotate ended"))
        #expect(!h.log.contains { $0.hasPrefix("map_pan") })
    }
}
