import GestureCore
import TestSupport
import Testing

@Suite struct GeometryTests {
    let screen = ScreenSize(width: 1000, height: 600)
    let x = AxisRange(minimum: 0, maximum: 9999, resolution: 40)
    let y = AxisRange(minimum: 0, maximum: 5999, resolution: 40)

    @Test func rotationAndFlipsApplyInNormalizedSpace() {
        // 10000 x 6000 values: each owns a cell of 0.1 px; a mirror maps a cell onto the
        // mirrored cell, so the first value mirrored lands on the last cell (0.1 px short
        // of the far edge), as the last value does unmirrored.
        func point(_ mapping: DeviceMapping, _ vx: Int32, _ vy: Int32) -> [Double] {
            let p = DeviceGeometry(screen: screen, x: x, y: y, mapping: mapping)
                .screenPoint(normalizedX: x.normalize(vx), normalizedY: y.normalize(vy))
            return [p.x, p.y]
        }
        func near(_ a: [Double], _ b: [Double]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }
        #expect(point(.identity, 2500, 3000) == [250, 300])
        #expect(point(.identity, 9999, 5999) == [999.9, 599.9])
        #expect(near(point(DeviceMapping(rotation: 90), 0, 0), [1000 - 1000.0 / 6000, 0]))
        #expect(near(point(DeviceMapping(rotation: 180), 2500, 3000), [749.9, 299.9]))
        #expect(near(point(DeviceMapping(rotation: 270), 0, 0), [0, 600 - 600.0 / 10000]))
        #expect(near(point(DeviceMapping(flipX: true), 2500, 3000), [749.9, 300]))
        #expect(near(point(DeviceMapping(flipY: true), 2500, 1500), [250, 449.9]))
        #expect(near(point(DeviceMapping(calibration: [0.5, 0, 0.25, 0, 1, 0]), 9999, 5999), [749.95, 599.9]))
        #expect(point(DeviceMapping(output: Rect(x: 100, y: 50, width: 200, height: 100)), 5000, 3000) == [200, 100])
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
