import GestureCore
import TestSupport
import Testing

@Suite struct ContinuousTests {
    @Test func panReportsTranslationSinceBeganAndVelocity() throws {
        let h = run(try single(.pan)) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.drag(1, toX: 200, toY: 150, from: 0, duration: 100 * ms, steps: 10)  // 1000 px/s right, 500 down
            b.up(1, at: 100 * ms)
        }
        #expect(h.log.first == "g began")
        #expect(h.log.last == "g ended")
        let began = try #require(h.events.first)
        #expect(began.translationX == 0 && began.translationY == 0)
        #expect(began.x == 110 && began.y == 105)  // 11.18 px = 2.8 mm > 10 pt
        // The last move arrives in the frame that lifts the finger: it counts.
        let last = try #require(h.events.last)
        #expect(abs(last.translationX - 90) < 1e-9 && abs(last.translationY - 45) < 1e-9)
        #expect(abs(last.velocityX - 1000) < 1e-6 && abs(last.velocityY - 500) < 1e-6)
    }

    @Test func panThresholdIsExclusive() throws {
        // 10 pt = 1.5583 mm = 6.233 px on the test panel.
        let model = try single(.pan)
        let below = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 106.2, y: 100, at: 10 * ms)
            b.up(1, at: 20 * ms)
        }
        #expect(below.log.isEmpty)
        #expect(below.traceLog.contains("[root/g] possible -> failed (lifted before recognized)"))
        let above = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 106.3, y: 100, at: 10 * ms)
            b.up(1, at: 20 * ms)
        }
        #expect(above.log == ["g began", "g ended"])
    }

    @Test func panMinimumAndMaximumTouches() throws {
        let model = try single(.pan) {
            $0.pan.minimumTouches = 2
            $0.pan.maximumTouches = 2
        }
        let one = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.drag(1, toX: 200, toY: 100, from: 0, duration: 100 * ms, steps: 5)
            b.up(1, at: 110 * ms)
        }
        #expect(one.log.isEmpty)
        let two = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 100, y: 200, at: 0)
            for step in 1...5 {
                let t = Int64(step) * 20 * ms
                b.move(1, x: 100 + 20 * Double(step), y: 100, at: t)
                b.move(2, x: 100 + 20 * Double(step), y: 200, at: t)
            }
            b.up(1, at: 110 * ms)
            b.up(2, at: 110 * ms)
        }
        #expect(two.log.first == "g began")
        #expect(two.events.first?.touches == 2)
        let three = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 100, y: 200, at: 0)
            b.down(3, x: 100, y: 300, at: 0)
            b.drag(1, toX: 200, toY: 100, from: 0, duration: 100 * ms, steps: 5)
        }
        #expect(three.log.isEmpty)
        #expect(three.traceLog.contains("[root/g] possible -> failed (3 touches > 2)"))
    }

    /// Two fingers spreading from span 100 px at 1 px per frame per finger; a third finger
    /// joins at frame 20 and lifts at frame 40: the scale never jumps.
    @Test func aFingerAddedAndLiftedMidPinchMakesNoJump() throws {
        let h = run(try single(.pinch)) { b in
            b.down(1, x: 400, y: 300, at: 0)
            b.down(2, x: 600, y: 300, at: 0)
            for step in 1...60 {
                let t = Int64(step) * 10 * ms
                if step == 20 { b.down(3, x: 500, y: 450, at: t) }
                if step == 40 { b.up(3, at: t) }
                b.move(1, x: 400 - Double(step), y: 300, at: t)
                b.move(2, x: 600 + Double(step), y: 300, at: t)
            }
            b.up(1, at: 610 * ms)
            b.up(2, at: 610 * ms)
        }
        let pinch = h.events(of: "g")
        #expect(pinch.first?.state == .began && pinch.last?.state == .ended)
        #expect(pinch.contains { $0.touches == 3 })
        for (a, b) in zip(pinch, pinch.dropFirst()) {
            #expect(abs(b.scale / a.scale - 1) < 0.011, "scale jumped from \(a.scale) to \(b.scale) at \(b.time)")
        }
        // Once the third finger has gone, the scale follows the two fingers' span 140 -> 160.
        let final = try #require(pinch.last)
        let atLift = try #require(pinch.first { $0.time == 400 * ms })
        #expect(abs(final.scale / atLift.scale - 160.0 / 140) < 1e-3)
    }

    @Test func rotationReBaselinesWhenTheContactsChange() throws {
        let h = run(try single(.rotation)) { b in
            b.down(1, x: 400, y: 300, at: 0)
            b.down(2, x: 600, y: 300, at: 0)
            for step in 1...20 {
                let a = 0.03 * Double(step)
                b.move(2, x: 400 + 200 * cosine(a), y: 300 + 200 * sine(a), at: Int64(step) * 10 * ms)
            }
            // Finger 1 lifts and comes back elsewhere: the angle between the new pair is unrelated.
            b.up(1, at: 210 * ms)
            b.down(3, x: 100, y: 500, at: 220 * ms)
            b.move(3, x: 100, y: 501, at: 230 * ms)
            b.up(2, at: 240 * ms)
            b.up(3, at: 240 * ms)
        }
        let r = h.events(of: "g")
        #expect(r.first?.state == .began && r.last?.state == .ended)
        let turned = try #require(r.first { $0.time == 200 * ms })
        #expect(abs(turned.rotation - (0.6 - 0.12)) < 1e-3)  // began after 0.12 rad (> 0.1)
        for e in r { #expect(abs(e.rotation) < 0.5) }
    }

    @Test func cancellingEveryContactCancelsWhatBeganAndFailsTheRest() throws {
        var m = ModelBuilder()
        m.gesture("pan", .pan)
        m.gesture("pinch", .pinch)
        m.simultaneous("pan", with: "pinch")
        m.gesture("tap", .tap) {
            $0.tap.touches = 2
            $0.tap.maxMovement = .millimeters(50)
        }
        m.simultaneous("tap", with: "pan")
        let h = run(try m.build()) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 100, y: 200, at: 0)
            b.drag(1, toX: 150, toY: 100, from: 0, duration: 50 * ms, steps: 5)
            b.cancel(1, at: 60 * ms)
            b.cancel(2, at: 60 * ms)
        }
        // The centroid of two moves half as far: the pan begins at the second step.
        #expect(h.log == ["pan began", "pan changed", "pan changed", "pan changed", "pan cancelled"])
        #expect(h.traceLog.contains("[root/pinch] possible -> failed (touches cancelled)"))
        #expect(h.traceLog.contains("[root/tap] possible -> failed (touches cancelled)"))
        // And everything is ready again.
        #expect(h.engine.snapshot().gestures.allSatisfy { $0.state == .possible && $0.contacts == 0 })
    }

    @Test func longPressDurationIsInclusive() throws {
        let model = try single(.longPress)
        let exact = run(model) { $0.tap(1, x: 100, y: 100, at: 0, duration: 500 * ms) }
        #expect(exact.log == ["g began", "g ended"])
        #expect(exact.events.first?.time == 500 * ms)
        let short = run(model) { $0.tap(1, x: 100, y: 100, at: 0, duration: 500 * ms - 1) }
        #expect(short.log.isEmpty)
    }

    @Test func longPressAllowableMovementIsExclusive() throws {
        let model = try single(.longPress)
        // 10 pt = 6.233 px.
        let inside = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 106.2, y: 100, at: 100 * ms)
            b.up(1, at: 600 * ms)
        }
        #expect(inside.log == ["g began", "g ended"])
        let outside = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.move(1, x: 106.3, y: 100, at: 100 * ms)
            b.up(1, at: 600 * ms)
        }
        #expect(outside.log.isEmpty)
    }

    @Test func longPressAfterATap() throws {
        let model = try single(.longPress) { $0.longPress.taps = 1 }
        let h = run(model) { b in
            b.tap(1, x: 100, y: 100, at: 0)
            b.down(2, x: 101, y: 100, at: 200 * ms)
            b.up(2, at: 800 * ms)
        }
        #expect(h.log == ["g began", "g ended"])
        #expect(h.events.first?.time == 700 * ms)
        let plain = run(model) { $0.tap(1, x: 100, y: 100, at: 0, duration: 700 * ms) }
        #expect(plain.log.isEmpty)
    }
}

@Suite struct ContactLifecycleTests {
    /// A panel that replaces a contact's tracking id mid-gesture (as the PQLabs recording
    /// does) ends the old id and begins a new one in the same frame, at the same place.
    @Test func aTrackingIDThatChurnsMidPinchMakesNoJumpAndNoEnd() throws {
        let h = run(try single(.pinch)) { b in
            b.down(1, x: 400, y: 300, at: 0)
            b.down(2, x: 600, y: 300, at: 0)
            var right: Int32 = 2
            for step in 1...40 {
                let t = Int64(step) * 10 * ms
                b.move(1, x: 400 - Double(step), y: 300, at: t)
                if step % 10 == 0 {  // churn: same finger, new id
                    let p = b.position(right)!
                    b.up(right, at: t)
                    right += 10
                    b.down(right, x: p.x, y: p.y, at: t)
                }
                b.move(right, x: 600 + Double(step), y: 300, at: t)
            }
            b.up(1, at: 410 * ms)
            b.up(right, at: 410 * ms)
        }
        let pinch = h.events(of: "g")
        #expect(pinch.filter { $0.state == .began }.count == 1)
        #expect(pinch.filter { $0.state == .ended }.count == 1 && pinch.last?.state == .ended)
        for (a, b) in zip(pinch, pinch.dropFirst()) {
            #expect(abs(b.scale / a.scale - 1) < 0.011, "scale jumped from \(a.scale) to \(b.scale) at \(b.time)")
        }
        // Span 100 -> 140; began after 10 pt (6.23 px) of span; the churn frames each lose a
        // frame of growth on the churned finger.
        let final = try #require(pinch.last)
        #expect(final.scale > 1.2 && final.scale < 140.0 / 106)
    }

    @Test func detachingADeviceCancelsItsContactsAtTheNextCall() throws {
        var b = FrameBuilder()
        b.down(1, x: 100, y: 100, at: 0)
        b.drag(1, toX: 200, toY: 100, from: 0, duration: 100 * ms, steps: 5)
        let h = harness(try single(.pan), builder: b)
        h.run(b.frames)
        #expect(h.log.first == "g began")
        h.engine.detach(device: b.device)
        #expect(h.log.last == "g changed")
        h.advance(to: 200 * ms)
        #expect(h.log.last == "g cancelled")
        #expect(h.traceLog.last == "[root/g] cancelled -> possible (reset)")
        #expect(h.engine.snapshot().contacts == 0)
    }

    @Test func framesOfAnUnattachedDeviceUsePointUnits() throws {
        var b = FrameBuilder(device: DeviceID(42))
        b.tap(1, x: 100, y: 100, at: 0)
        let h = PipelineHarness(model: try single(.tap))
        h.run(b.frames)
        #expect(h.log == ["g recognized"])
        #expect(h.events.first?.device == DeviceID(42))
    }
}

/// `maximumNumberOfTouches` after the pan began: the extra contacts are not the pan's.
@Suite struct PanMaximumTouchesTests {
    @Test func aContactBeyondTheMaximumAfterBeganIsIgnored() throws {
        let h = run(try single(.pan) { $0.pan.maximumTouches = 1 }) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.drag(1, toX: 150, toY: 100, from: 0, duration: 50 * ms, steps: 5)
            b.down(2, x: 500, y: 500, at: 60 * ms)
            b.move(2, x: 520, y: 500, at: 70 * ms)  // only the ignored finger moves
            b.drag(1, toX: 200, toY: 100, from: 70 * ms, duration: 50 * ms, steps: 5)
            b.up(1, at: 130 * ms)  // the pan's finger lifts: it ends though finger 2 is down
            b.move(2, x: 540, y: 500, at: 140 * ms)
            b.up(2, at: 150 * ms)
        }
        let pan = h.events(of: "g")
        #expect(pan.first?.state == .began && pan.last?.state == .ended)
        #expect(pan.last?.time == 130 * ms)
        for e in pan {
            #expect(e.touches == 1, "touches=\(e.touches) at \(e.time)")
            #expect(e.y == 100, "the centroid moved to \(e.x), \(e.y) at \(e.time)")
        }
        #expect(!pan.contains { $0.time == 70 * ms }, "a move of the ignored finger reported a change")
        #expect(pan.last?.x == 200)
    }

    @Test func tooManyContactsBeforeBeganFailIt() throws {
        let h = run(try single(.pan) { $0.pan.maximumTouches = 1 }) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.down(2, x: 100, y: 300, at: 10 * ms)
            b.drag(1, toX: 150, toY: 100, from: 10 * ms, duration: 50 * ms, steps: 5)
        }
        #expect(h.log.isEmpty)
        #expect(h.traceLog.contains("[root/g] possible -> failed (2 touches > 1)"))
    }

    /// Two contacts down in the frame that would exceed the maximum: the lower slot is taken.
    @Test func theEarliestContactsUpToTheMaximumCount() throws {
        let h = run(try single(.pan) { $0.pan.maximumTouches = 2 }) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.drag(1, toX: 150, toY: 100, from: 0, duration: 50 * ms, steps: 5)
            b.down(2, x: 150, y: 200, at: 60 * ms)
            b.down(3, x: 150, y: 400, at: 60 * ms)
            b.move(1, x: 160, y: 100, at: 70 * ms)
            b.up(1, at: 80 * ms)
            b.up(2, at: 80 * ms)
            b.up(3, at: 80 * ms)
        }
        let changed = try #require(h.events(of: "g").first { $0.time == 70 * ms })
        #expect(changed.touches == 2 && changed.y == 150)
    }
}

/// The engine tracks at most 64 contacts at once; the rest are counted, not lost silently.
@Suite struct ContactCapacityTests {
    @Test func contactsBeyondSixtyFourAreCountedOnce() throws {
        var b = FrameBuilder()
        for id in Int32(1)...70 { b.down(id, x: Double(id) * 10, y: 100, at: 0) }
        for id in Int32(1)...70 { b.move(id, x: Double(id) * 10, y: 120, at: 10 * ms) }
        let whileDown = b.frames.count
        for id in Int32(1)...70 { b.up(id, at: 20 * ms) }
        let h = harness(try single(.pan), builder: b)
        h.run(b.frames.prefix(whileDown))
        let down = h.engine.snapshot()
        #expect(down.contacts == 64)
        #expect(down.droppedContacts == 6)
        h.run(b.frames.dropFirst(whileDown))
        #expect(h.engine.snapshot().droppedContacts == 6)
        #expect(h.engine.snapshot().contacts == 0)
    }
}
