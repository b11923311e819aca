import GestureCore
import TestSupport
import Testing

@Suite struct ArbitrationTests {
    /// Every gesture of a busy model, built in the given order.
    func busyModel(_ order: [String]) throws -> GestureModel {
        var m = ModelBuilder()
        m.view("button", frame: Rect(x: 600, y: 300, width: 300, height: 200))
        for name in order {
            switch name {
            case "tap": m.gesture("tap", .tap)
            case "double-tap": m.gesture("double-tap", .tap) { $0.tap.taps = 2 }
            case "pan": m.gesture("pan", .pan)
            case "swipe": m.gesture("swipe", .swipe) { $0.swipe.directions = [.left, .right] }
            case "press": m.gesture("press", .longPress, on: "button")
            case "button-tap": m.gesture("button-tap", .tap, on: "button")
            default: preconditionFailure(name)
            }
        }
        m.require("tap", toFail: "double-tap")
        m.require("swipe", toBeFailedBefore: "pan")
        return try m.build()
    }

    /// Several touch sequences one after another.
    func scenario(_ b: inout FrameBuilder) {
        b.tap(1, x: 100, y: 100, at: 0)  // single tap (after the interval)
        b.tap(2, x: 100, y: 100, at: 1000 * ms)
        b.tap(3, x: 102, y: 100, at: 1200 * ms)  // double tap
        b.down(4, x: 300, y: 300, at: 2000 * ms)  // flick: swipe
        b.drag(4, toX: 380, toY: 300, from: 2000 * ms, duration: 80 * ms, steps: 8)
        b.up(4, at: 2090 * ms)
        b.down(5, x: 300, y: 300, at: 3000 * ms)  // slow drag: pan
        b.drag(5, toX: 400, toY: 300, from: 3000 * ms, duration: 1000 * ms, steps: 50)
        b.up(5, at: 4010 * ms)
        b.tap(6, x: 700, y: 400, at: 5000 * ms)  // button tap
        b.tap(7, x: 700, y: 400, at: 6000 * ms, duration: 700 * ms)  // long press on the button
    }

    @Test func declarationOrderNeverChangesAnOutcome() throws {
        let names = ["tap", "double-tap", "pan", "swipe", "press", "button-tap"]
        let orders = [
            names, names.reversed(), ["pan", "button-tap", "tap", "press", "swipe", "double-tap"],
            ["swipe", "press", "double-tap", "button-tap", "pan", "tap"],
        ]
        var logs: [[String]] = []
        for order in orders {
            let h = run(try busyModel(order)) { scenario(&$0) }
            logs.append(h.events.map { "\(h.engine.model.gestures[$0.gesture].name) \($0.state) \($0.time)" })
        }
        #expect(logs.allSatisfy { $0 == logs[0] })
        let outcome = logs[0].map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(outcome.first == "tap recognized")
        #expect(outcome.contains("double-tap recognized"))
        #expect(outcome.contains("swipe recognized"))
        #expect(outcome.contains("pan began") && outcome.contains("pan ended"))
        #expect(outcome.contains("button-tap recognized"))
        #expect(outcome.contains("press began") && outcome.last == "press ended")
        #expect(outcome.filter { $0 == "tap recognized" }.count == 1)
    }

    @Test func theSameInputGivesTheSameOutputEveryTime() throws {
        let model = try busyModel(["tap", "double-tap", "pan", "swipe", "press", "button-tap"])
        let a = run(model) { scenario(&$0) }
        let b = run(model) { scenario(&$0) }
        #expect(a.events == b.events)
        #expect(a.trace == b.trace)
        #expect(!a.events.isEmpty)
    }

    @Test func aRequirementThatReceivedNoneOfTheContactsCountsAsFailed() throws {
        var m = ModelBuilder()
        m.view("left", frame: Rect(x: 0, y: 0, width: 500, height: 600))
        m.view("right", frame: Rect(x: 500, y: 0, width: 500, height: 600))
        m.gesture("left-tap", .tap, on: "left")
        m.gesture("right-double", .tap, on: "right") { $0.tap.taps = 2 }
        m.require("left-tap", toFail: "right-double")
        let h = run(try m.build()) { $0.tap(1, x: 100, y: 100, at: 0) }
        #expect(h.log == ["left-tap recognized"])
        #expect(h.events.first?.time == 80 * ms && h.events.first?.delayedFrom == nil)
    }

    @Test func aWaitingGestureFailsSilentlyWhenTheOtherBegins() throws {
        var m = ModelBuilder()
        m.gesture("press", .longPress)
        m.gesture("pan", .pan)
        m.require("press", toFail: "pan")
        m.simultaneous("press", with: "pan")  // exclusivity aside, the requirement alone decides
        let h = run(try m.build()) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.hold(at: 600 * ms)  // press wants to begin at 500 ms: pan still possible, so it waits
            b.move(1, x: 104, y: 100, at: 650 * ms)
            b.move(1, x: 110, y: 100, at: 700 * ms)  // pan begins: the press fails
            b.up(1, at: 800 * ms)
        }
        #expect(!h.log.contains { $0.hasPrefix("press") })
        #expect(h.log.first == "pan began")
        #expect(h.traceLog.contains("[root/press] possible -> pending (required failure of pan)"))
        #expect(h.traceLog.contains("[root/press] pending -> failed (pan recognized)"))
    }

    @Test func cannotPreventLetsBothRun() throws {
        var m = ModelBuilder()
        m.gesture("pan", .pan)
        m.gesture("swipe", .swipe)
        m.gesture("tap", .tap)  // stays exclusive
        let pan = m.index("pan")
        let swipe = m.index("swipe")
        var model = try m.build()
        model.gestures[pan].cannotPrevent = [swipe]
        let h = run(try GestureModel(screen: model.screen, views: model.views, gestures: model.gestures)) { b in
            b.down(1, x: 100, y: 300, at: 0)
            b.drag(1, toX: 160, toY: 300, from: 0, duration: 100 * ms, steps: 10)
            b.up(1, at: 110 * ms)
        }
        #expect(h.log.first == "pan began")
        #expect(h.log.contains("swipe recognized"))
        #expect(h.traceLog.contains("[root/tap] possible -> failed (prevented by pan)"))

        // The same from the other side: the swipe cannot be prevented by the pan.
        model.gestures[pan].cannotPrevent = []
        model.gestures[swipe].cannotBePreventedBy = [pan]
        let other = run(try GestureModel(screen: model.screen, views: model.views, gestures: model.gestures)) { b in
            b.down(1, x: 100, y: 300, at: 0)
            b.drag(1, toX: 160, toY: 300, from: 0, duration: 100 * ms, steps: 10)
            b.up(1, at: 110 * ms)
        }
        #expect(other.log.contains("swipe recognized") && other.log.first == "pan began")
    }

    @Test func shouldBeginChecksTheContactCount() throws {
        let model = try single(.pan) { $0.shouldBegin = ShouldBegin(touches: 2...3) }
        let one = run(model) { b in
            b.down(1, x: 100, y: 100, at: 0)
            b.drag(1, toX: 200, toY: 100, from: 0, duration: 100 * ms, steps: 5)
            b.up(1, at: 110 * ms)
        }
        #expect(one.log.isEmpty)
        #expect(one.traceLog.contains("[root/g] possible -> failed (should_begin refused)"))
    }

    @Test func theSnapshotCountsRecognitions() throws {
        var b = FrameBuilder()
        b.tap(1, x: 100, y: 100, at: 0)
        b.tap(2, x: 100, y: 100, at: 500 * ms)
        b.down(3, x: 100, y: 100, at: 900 * ms)
        // Not settled: a minute on, the health stage would release contact 3 as stuck.
        let h = harness(try single(.tap), builder: b)
        h.run(b.frames)
        h.advance(to: 900 * ms)
        let status = try #require(h.engine.snapshot().gestures.first)
        #expect(status.recognitions == 2)
        #expect(status.contacts == 1)
        #expect(h.engine.snapshot().contacts == 1)
        #expect(h.engine.snapshot().time == 900 * ms)
    }

    @Test func theTraceIsOnlyRecordedWhenEnabled() throws {
        var b = FrameBuilder()
        b.tap(1, x: 100, y: 100, at: 0)
        let h = PipelineHarness(model: try single(.tap), trace: false)
        h.attach(b)
        h.run(b.frames)
        #expect(h.log == ["g recognized"])
        #expect(h.trace.isEmpty)
    }
}
