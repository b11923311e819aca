import GestureCore
import TestSupport
import Testing

@Suite struct GeometryTests {
    let screen = ScreenSize(width: 1000, height: 600)
    let x = AxisRange(minimum: 0, maximum: 10000, resolution: 40)
    let y = AxisRange(minimum: 0, maximum: 6000, resolution: 40)

    @Test func rotationAndFlipsApplyInNormalizedSpace() {
        func point(_ mapping: DeviceMapping, _ nx: Double, _ ny: Double) -> [Double] {
            let p = DeviceGeometry(screen: screen, x: x, y: y, mapping: mapping).screenPoint(normalizedX: nx, normalizedY: ny)
            return [p.x, p.y]
        }
        #expect(point(.identity, 0.25, 0.5) == [250, 300])
        #expect(point(DeviceMapping(rotation: 90), 0, 0) == [1000, 0])
        #expect(point(DeviceMapping(rotation: 180), 0.25, 0.5) == [750, 300])
        #expect(point(DeviceMapping(rotation: 270), 0, 0) == [0, 600])
        #expect(point(DeviceMapping(flipX: true), 0.25, 0.5) == [750, 300])
        #expect(point(DeviceMapping(flipY: true), 0.25, 0.25) == [250, 450])
        #expect(point(DeviceMapping(calibration: [0.5, 0, 0.25, 0, 1, 0]), 1, 1) == [750, 600])
        #expect(point(DeviceMapping(output: Rect(x: 100, y: 50, width: 200, height: 100)), 0.5, 0.5) == [200, 100])
    }

    @Test func aPlausibleResolutionGivesPhysicalUnits() {
        let g = DeviceGeometry(screen: screen, x: x, y: y, mapping: .identity)
        #expect(g.unitSource == .resolution)
        #expect(g.mmPerPixelX == 0.25 && g.mmPerPixelY == 0.25)
        // A quarter turn swaps the panel's axes onto the screen's.
        let turned = DeviceGeometry(screen: screen, x: x, y: y, mapping: DeviceMapping(rotation: 90))
        #expect(turned.mmPerPixelX == 0.15 && turned.mmPerPixelY == 250.0 / 600)
    }

    @Test func anImplausibleResolutionFallsBackToSizeThenToPoints() {
        let tiny = AxisRange(minimum: 0, maximum: 4095, resolution: 1000)  // 4 mm: not a screen
        let sized = DeviceGeometry(screen: screen, x: tiny, y: tiny, mapping: DeviceMapping(sizeMM: (500, 300)))
        #expect(sized.unitSource == .configuredSize)
        #expect(sized.mmPerPixelX == 0.5)
        let bare = DeviceGeometry(screen: screen, x: tiny, y: AxisRange(minimum: 0, maximum: 4095), mapping: .identity)
        #expect(bare.unitSource == .pointPerPixel)
        #expect(bare.mmPerPixelX == GestureDefaults.pointInMillimeters)
        #expect(bare.millimeters(.points(10)) == bare.millimeters(.pixels(10)))
    }

    @Test func attachWarnsOnceNamingTheDeviceAndThresholdsFollowTheUnits() throws {
        let h = PipelineHarness(model: try single(.tap))
        let noResolution = AxisRange(minimum: 0, maximum: 4095)
        h.attach(device: DeviceID(7), name: "Cheap Panel", x: noResolution, y: noResolution)
        h.attach(device: DeviceID(8), name: "Good Panel", x: x, y: y)
        #expect(h.warnings.count == 1)
        let warning = try #require(h.warnings.first)
        #expect(warning.contains("Cheap Panel") && warning.contains("1 pt = 1 px") && warning.contains("size_mm"))

        // 1 pt = 1 px: 3 mm is 19.25 px, so an 18 px wobble is still a tap (it is 4.5 mm on the real panel).
        var b = FrameBuilder(device: DeviceID(7), unitsPerPixel: 4.095, resolution: 0)
        b.down(1, x: 100, y: 100, at: 0)
        b.move(1, x: 118, y: 100, at: 20 * ms)
        b.up(1, at: 40 * ms)
        h.run(b.frames)
        #expect(h.events.map(\.state) == [.recognized])
    }

    @Test func aCycleOfFailureRequirementsIsRejectedNamingIt() throws {
        var m = ModelBuilder()
        m.gesture("a", .tap)
        m.gesture("b", .tap)
        m.gesture("c", .pan)
        m.require("a", toFail: "b")
        m.require("b", toFail: "c")
        m.require("a", toBeFailedBefore: "c")  // c waits on a: a -> b -> c -> a
        #expect(throws: ModelError.failureCycle(["a", "b", "c", "a"])) { try m.build() }
    }
}

/// udev's `LIBINPUT_CALIBRATION_MATRIX` text, read as libinput reads it.
@Test func udevCalibrationPropertyIsSixNumbers() {
    #expect(DeviceMapping.calibration(udevProperty: "0 -1 1 1 0 0") == [0, -1, 1, 1, 0, 0])
    #expect(DeviceMapping.calibration(udevProperty: " 1.5  0 -0.25 0 1 0 ") == [1.5, 0, -0.25, 0, 1, 0])
    #expect(DeviceMapping.calibration(udevProperty: "1 0 0 0 1") == nil)
    #expect(DeviceMapping.calibration(udevProperty: "1 0 0 0 1 0 0") == nil)
    #expect(DeviceMapping.calibration(udevProperty: "1 0 0 0 1 x") == nil)
    #expect(DeviceMapping.calibration(udevProperty: "1 0 0 0 1 nan") == nil)
}
