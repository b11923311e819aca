import GestureCore
import TestSupport
import Testing

@Suite struct ViewTests {
    /// root > panel (0,0,500,600) > button (50,50,100,100); overlay (400,0,200,200) on top of panel.
    func nested() -> ModelBuilder {
        var m = ModelBuilder()
        m.view("panel", frame: Rect(x: 0, y: 0, width: 500, height: 600))
        m.view("button", parent: "panel", frame: Rect(x: 50, y: 50, width: 100, height: 100))
        m.view("overlay", frame: Rect(x: 400, y: 0, width: 200, height: 200))
        m.gesture("button-tap", .tap, on: "button")
        m.gesture("panel-tap", .tap, on: "panel")
        m.gesture("overlay-tap", .tap, on: "overlay")
        m.gesture("root-tap", .tap)
        return m
    }

    @Test func theDeepestViewsRecognizerWinsAndAncestorsAreExcluded() throws {
        let h = run(try nested().build()) { $0.tap(1, x: 100, y: 100, at: 0) }
        #expect(h.log == ["button-tap recognized"])
        #expect(h.events.first?.view == 2)
        #expect(h.traceLog.contains("[panel/panel-tap] possible -> failed (prevented by button-tap)"))
        #expect(h.traceLog.contains("[root/root-tap] possible -> failed (prevented by button-tap)"))
    }

    @Test func aLaterSiblingLiesOnTop() throws {
        let h = run(try nested().build()) { $0.tap(1, x: 450, y: 100, at: 0) }
        #expect(h.log == ["overlay-tap recognized"])
    }

    @Test func aTouchOutsideAViewNeverReachesItsGestures() throws {
        let h = run(try nested().build()) { $0.tap(1, x: 800, y: 500, at: 0) }
        #expect(h.log == ["root-tap recognized"])
        #expect(!h.traceLog.contains { $0.contains("button-tap") || $0.contains("panel-tap") })
    }

    @Test func hiddenAndDisabledViewsPassTouchesToTheirParent() throws {
        for flags in [(enabled: false, hidden: false), (enabled: true, hidden: true)] {
            var m = ModelBuilder()
            m.view("panel", frame: Rect(x: 0, y: 0, width: 500, height: 600))
            m.view(
                "button", parent: "panel", frame: Rect(x: 50, y: 50, width: 100, height: 100),
                enabled: flags.enabled, hidden: flags.hidden)
            m.gesture("button-tap", .tap, on: "button")
            m.gesture("panel-tap", .tap, on: "panel")
            let h = run(try m.build()) { $0.tap(1, x: 100, y: 100, at: 0) }
            #expect(h.log == ["panel-tap recognized"])
        }
    }

    @Test func aContactStaysBoundToItsViewWhenItWandersOut() throws {
        var m = ModelBuilder()
        m.view("slider", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        m.gesture("slide", .pan, on: "slider")
        let h = run(try m.build()) { b in
            b.down(1, x: 100, y: 50, at: 0)
            b.drag(1, toX: 600, toY: 400, from: 0, duration: 200 * ms, steps: 10)
            b.up(1, at: 210 * ms)
        }
        #expect(h.log.first == "slide began")
        #expect(h.log.last == "slide ended")
        let last = try #require(h.events.last)
        #expect(last.x == 600 && last.y == 400)
    }

    @Test func aContactStartingOutsideAndEnteringIsIgnored() throws {
        var m = ModelBuilder()
        m.view("slider", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        m.gesture("slide", .pan, on: "slider")
        let h = run(try m.build()) { b in
            b.down(1, x: 600, y: 400, at: 0)
            b.drag(1, toX: 100, toY: 50, from: 0, duration: 200 * ms, steps: 10)
            b.up(1, at: 210 * ms)
        }
        #expect(h.log.isEmpty)
    }

    @Test func aTapOnAChildFailsWhileARootPanRunsAndThePanContinuesWithoutAJump() throws {
        var m = ModelBuilder()
        m.view("button", frame: Rect(x: 700, y: 400, width: 200, height: 150))
        m.gesture("pan", .pan)
        m.gesture("tap", .tap, on: "button")
        let h = run(try m.build()) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.drag(1, toX: 200, toY: 100, from: 0, duration: 100 * ms, steps: 10)
            b.down(2, x: 800, y: 500, at: 110 * ms)
            b.up(2, at: 160 * ms)
            b.drag(1, toX: 300, toY: 100, from: 170 * ms, duration: 100 * ms, steps: 10)
            b.up(1, at: 280 * ms)
        }
        #expect(!h.log.contains("tap recognized"))
        #expect(h.log.first == "pan began")
        #expect(h.log.last == "pan ended")
        #expect(!h.log.contains("pan cancelled"))
        #expect(h.traceLog.contains("[button/tap] possible -> failed (prevented by pan)"))
        // The second finger changed the centroid, never the translation.
        let pan = h.events(of: "pan")
        for (a, b) in zip(pan, pan.dropFirst()) {
            #expect(abs(b.translationX - a.translationX) <= 10.01, "translation jumped at \(b.time)")
        }
        let final = try #require(pan.last)
        #expect(abs(final.translationX - (300 - 100 - 6.25 - 3.75)) < 10)  // since began (after 10 pt)
    }

    @Test func shouldReceiveTouchFiltersByToolAndRegion() throws {
        var m = ModelBuilder()
        m.gesture("finger-tap", .tap) {
            $0.shouldReceiveTouch = ShouldReceiveTouch(toolTypes: [.finger], region: Rect(x: 0, y: 0, width: 500, height: 600))
        }
        let h = run(try m.build()) { b in
            b.down(1, x: 100, y: 100, at: 0, tool: .pen)
            b.up(1, at: 50 * ms)
            b.tap(2, x: 700, y: 100, at: 100 * ms)
            b.tap(3, x: 100, y: 100, at: 200 * ms)
        }
        #expect(h.log == ["finger-tap recognized"])
        #expect(h.events.first?.time == 280 * ms)
    }

    @Test func shouldBeginRefusesOutsideItsRangeOrDevice() throws {
        let model = try single(.tap) { $0.shouldBegin = ShouldBegin(devices: ["ELAN*"]) }
        var b = FrameBuilder()
        b.tap(1, x: 100, y: 100, at: 0)
        let elan = PipelineHarness(model: model)
        elan.attach(b, name: "ELAN Touchscreen")
        elan.run(b.frames)
        #expect(elan.log == ["g recognized"])
        let other = PipelineHarness(model: model)
        other.attach(b, name: "eGalax Inc.")
        other.run(b.frames)
        #expect(other.log.isEmpty)
        #expect(other.traceLog.contains("[root/g] possible -> failed (should_begin refused)"))
    }

    @Test func aGestureNeverMixesDevices() throws {
        let model = try single(.tap) { $0.tap.touches = 2 }
        var a = FrameBuilder(device: DeviceID(1))
        var b = FrameBuilder(device: DeviceID(2))
        a.down(1, x: 100, y: 100, at: 0)
        b.down(1, x: 200, y: 100, at: 10 * ms)
        a.up(1, at: 60 * ms)
        b.up(1, at: 70 * ms)
        let h = PipelineHarness(model: model)
        h.attach(a)
        h.attach(b)
        h.run((a.frames + b.frames).sorted { $0.time < $1.time })
        #expect(h.log.isEmpty)
    }
}
