// Counts the heap allocations of the frame path (each device's geometry, the frame stages,
// the engine: `FramePath`, which every input goes through) with ordo-one's malloc interposer.
// Run under LD_PRELOAD=libMallocInterposerSwift.so (GestureCoreTests does); prints one line:
//   frames <n> events <n> mallocs <n> control <n> ns_per_frame <n> mixed_frames <n> mixed_events <n> mixed_mallocs <n>
//   delivery_changes <n> delivery_mallocs <n> health_frames <n> health_contacts <n> health_mallocs <n>
//   health_ns_per_ten_finger_frame <n> health_ten_finger_mallocs <n> health_filtered <n> health_notices <n>
//   health_edge <n> health_outlier <n> health_jump <n>
//   set_mallocs <n> set_cancelled <n> stream_outputs <n> stream_mallocs <n>
// (mixed: taps, a double tap, a long press, a two-finger pinch with rotation and palms, after the pan;
// delivery: both again with touch delivery on; health: the health stage with every rule on over
// both and ten fingers dragging together; set: runtime changes in place mid-drag, then frames;
// stream: both through a `GesturePipeline`, every output on, drained into a sink each frame).
// `control` counts one deliberate allocation, proving the interposer is really loaded.

import GestureConfig
import GestureCore
import MallocInterposerSwift
import TestSupport
// `GesturePipeline.handle` (package access): frames built here, not raw events. Not
// `@testable`: `make release` builds this target too, without testing.
import TouchPipeline

#if canImport(Glibc)
import Glibc
#endif

/// A kiosk-like model: every recognizer type competing for the same contacts.
func kioskModel() throws -> GestureModel {
    var m = ModelBuilder()
    m.view("panel", frame: Rect(x: 0, y: 0, width: 600, height: 600))
    m.gesture("pan", .pan)
    m.gesture("swipe", .swipe) { $0.swipe.directions = [.left, .right] }
    m.gesture("tap", .tap)
    m.gesture("double-tap", .tap) { $0.tap.taps = 2 }
    m.gesture("press", .longPress, on: "panel") {
        $0.shouldReceiveTouch = ShouldReceiveTouch(toolTypes: [.finger], hitViews: [0, 1])
    }
    m.gesture("pinch", .pinch, on: "panel")
    m.gesture("rotate", .rotation, on: "panel")
    m.gesture("edge", .edgePan) { $0.edgePan.edges = [.left] }
    m.require("tap", toFail: "double-tap")
    m.require("pan", toFail: "swipe")
    m.simultaneous("pinch", with: "rotate")
    return try m.build()
}

/// One finger down, `moves` slow moves of 1 px every 8 ms (a pan, not a swipe), up.
func panFrames(startingAt start: Int64, moves: Int) -> [TouchFrame] {
    var b = FrameBuilder()
    b.down(1, x: 100, y: 300, at: start)
    for i in 1...moves { b.move(1, x: 100 + Double(i % 700), y: 300, at: start + Int64(i) * 8000) }
    b.up(1, at: start + Int64(moves + 1) * 8000)
    return b.frames
}

/// Taps, a double tap, a held press, two fingers twisting apart, then a drag whose finger
/// becomes a palm beside a palm resting from the start, from `start`.
func mixedFrames(startingAt start: Int64) -> [TouchFrame] {
    var b = FrameBuilder()
    var t = start
    for i in 0..<10 {
        b.tap(Int32(10 + i), x: 300, y: 300, at: t)
        t += i % 2 == 0 ? 200_000 : 1_000_000
    }
    b.tap(30, x: 300, y: 300, at: t, duration: 800_000)
    t += 2_000_000
    b.down(40, x: 250, y: 300, at: t)
    b.down(41, x: 350, y: 300, at: t)
    for i in 1...200 {
        let spread = 50 + Double(i) / 4
        let lean = Double(i) / 10
        b.move(40, x: 300 - spread, y: 300 - lean, at: t + Int64(i) * 8000)
        b.move(41, x: 300 + spread, y: 300 + lean, at: t + Int64(i) * 8000)
    }
    b.up(40, at: t + 201 * 8000)
    b.up(41, at: t + 201 * 8000)
    t += 3_000_000
    b.down(50, x: 100, y: 300, at: t)
    b.down(51, x: 500, y: 100, at: t, tool: .palm)
    for i in 1...40 { b.move(50, x: 100 + Double(i) * 2, y: 300, at: t + Int64(i) * 8000) }
    b.tool(50, .palm, at: t + 41 * 8000)
    for i in 42...60 { b.move(50, x: 100 + Double(i) * 2, y: 300, at: t + Int64(i) * 8000) }
    b.up(50, at: t + 61 * 8000)
    b.up(51, at: t + 61 * 8000)
    return b.frames
}

let moves = 1000
let path = FramePath(model: try kioskModel())
let panel = FrameBuilder()
path.attach(device: panel.device, name: "probe panel", x: panel.x, y: panel.y, mapping: .identity)
var events: [GestureEvent] = []
events.reserveCapacity(4 * moves)

func feed(_ path: FramePath, _ frames: [TouchFrame], into events: inout [GestureEvent]) {
    // Index loop: an unspecialized array iterator would allocate in a debug build.
    for i in 0..<frames.count {
        let frame = frames[i]
        if let deadline = path.nextDeadline, deadline < frame.time { path.advance(to: deadline, into: &events) }
        path.handle(frame, into: &events)
    }
}

// Warm up once (first-use paths), then measure a second, identical pan.
feed(path, panFrames(startingAt: 0, moves: 50), into: &events)
let measured = panFrames(startingAt: 10_000_000, moves: moves)
events.removeAll(keepingCapacity: true)

func monotonicNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
let started = monotonicNanoseconds()
feed(path, measured, into: &events)
let elapsed = monotonicNanoseconds() - started
MallocInterposerSwift.unhook()
let hot = MallocInterposerSwift.getStatistics().mallocCount
let pannedEvents = events.count
events.removeAll(keepingCapacity: true)

feed(path, mixedFrames(startingAt: 30_000_000), into: &events)  // warm-up of these paths
let mixed = mixedFrames(startingAt: 60_000_000)
events.removeAll(keepingCapacity: true)
MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
feed(path, mixed, into: &events)
path.advance(to: 90_000_000, into: &events)
MallocInterposerSwift.unhook()
let mixedMallocs = MallocInterposerSwift.getStatistics().mallocCount
let mixedEvents = events.count

// The same mix with touch delivery deciding what the application sees, changes drained
// into a kept buffer as the daemon's output stage does.
let delivering = FramePath(model: try kioskModel())
delivering.attach(device: panel.device, name: "probe panel", x: panel.x, y: panel.y, mapping: .identity)
delivering.engine.touchDeliveryEnabled = true
var changes: [TouchChange] = []
changes.reserveCapacity(4 * moves)
func feedDelivering(
    _ path: FramePath, _ frames: [TouchFrame], events: inout [GestureEvent],
    changes: inout [TouchChange]
) {
    for i in 0..<frames.count {
        let frame = frames[i]
        if let deadline = path.nextDeadline, deadline < frame.time { path.advance(to: deadline, into: &events) }
        path.handle(frame, into: &events)
        path.engine.drainTouchChanges(into: &changes)
        events.removeAll(keepingCapacity: true)
    }
}
feedDelivering(delivering, panFrames(startingAt: 0, moves: 50), events: &events, changes: &changes)
feedDelivering(delivering, mixedFrames(startingAt: 10_000_000), events: &events, changes: &changes)
changes.removeAll(keepingCapacity: true)
let deliveredPan = panFrames(startingAt: 30_000_000, moves: moves)
let deliveredMix = mixedFrames(startingAt: 50_000_000)
MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
feedDelivering(delivering, deliveredPan, events: &events, changes: &changes)
feedDelivering(delivering, deliveredMix, events: &events, changes: &changes)
MallocInterposerSwift.unhook()
let deliveryMallocs = MallocInterposerSwift.getStatistics().mallocCount

// The health stage with every rule on, over the pan, the mix and ten fingers dragging
// together, drained as the pipeline drains it (`TouchHealthSettings.everyRule`).

/// Ten fingers down in a row, dragged together for `moves` frames of 8 ms, then lifted.
func tenFingerFrames(startingAt start: Int64, moves: Int) -> [TouchFrame] {
    var b = FrameBuilder()
    for f in 0..<10 { b.down(Int32(100 + f), x: 50 + Double(f) * 50, y: 100 + Double(f) * 20, at: start) }
    for i in 1...moves {
        for f in 0..<10 {
            b.move(Int32(100 + f), x: 50 + Double(f) * 50, y: 100 + Double(f) * 20 + Double(i % 300), at: start + Int64(i) * 8000)
        }
    }
    for f in 0..<10 { b.up(Int32(100 + f), at: start + Int64(moves + 1) * 8000) }
    return b.frames
}

let health = TouchHealth(
    device: panel.device, settings: .everyRule,
    geometry: DeviceGeometry(screen: panel.screen, x: panel.x, y: panel.y, mapping: .identity))
var healthNotices: [HealthNotice] = []
healthNotices.reserveCapacity(1024)
var healthOut = 0
/// Returns the contacts the stage passed on; split ids count up from `nextID`.
func feedHealth(
    _ health: TouchHealth, _ frames: [ScreenFrame], nextID: inout Int32, notices: inout [HealthNotice]
) -> Int {
    var out = 0
    for i in 0..<frames.count {
        while let deadline = health.nextDeadline, deadline < frames[i].time {
            if health.advance(
                to: deadline,
                freshID: { _ in
                    nextID += 1
                    return nextID
                })
            {
                out += health.output.contacts.count
            }
        }
        if health.handle(
            frames[i],
            freshID: { _ in
                nextID += 1
                return nextID
            })
        {
            out += health.output.contacts.count
        }
        health.drainNotices(into: &notices)
    }
    return out
}
/// The panel's own faults the newer rules take: a still touch on the border (dropped), one
/// that lands there and swipes in (shown from where it landed), a drag with one report
/// 100 mm off its path (dropped), and one whose report jumps and stays (split); away from
/// the spot the mixed frames' taps mask.
func faultFrames(startingAt start: Int64) -> [TouchFrame] {
    var b = FrameBuilder()
    b.tap(1, x: 0, y: 300, at: start, duration: 100_000)
    b.down(2, x: 0, y: 300, at: start + 200_000)
    b.drag(2, toX: 200, toY: 300, from: start + 300_000, duration: 100_000, steps: 10)
    b.up(2, at: start + 410_000)
    b.down(3, x: 300, y: 450, at: start + 500_000)
    b.drag(3, toX: 340, toY: 450, from: start + 500_000, duration: 40_000, steps: 4)
    b.move(3, x: 740, y: 450, at: start + 550_000)  // one report off the path ...
    b.move(3, x: 344, y: 450, at: start + 560_000)  // ... and back on it
    b.drag(3, toX: 380, toY: 450, from: start + 560_000, duration: 40_000, steps: 4)
    b.move(3, x: 780, y: 450, at: start + 610_000)
    b.drag(3, toX: 820, toY: 450, from: start + 620_000, duration: 40_000, steps: 4)
    b.up(3, at: start + 670_000)
    return b.frames
}
var nextSplitID: Int32 = 1_000_000
for warmUp in [
    panFrames(startingAt: 0, moves: 50), mixedFrames(startingAt: 10_000_000), tenFingerFrames(startingAt: 40_000_000, moves: 20),
    faultFrames(startingAt: 60_000_000),
] {
    _ = feedHealth(health, warmUp.map(health.geometry.place), nextID: &nextSplitID, notices: &healthNotices)
}
// Placed before the probe counts: the pipeline places into a buffer it reuses.
let healthPan = panFrames(startingAt: 100_000_000, moves: moves).map(health.geometry.place)
let healthMix = mixedFrames(startingAt: 120_000_000).map(health.geometry.place)
let healthTen = tenFingerFrames(startingAt: 150_000_000, moves: moves).map(health.geometry.place)
let healthFaults = (0..<20).flatMap { faultFrames(startingAt: 130_000_000 + Int64($0) * 1_000_000) }.map(health.geometry.place)
MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
healthOut += feedHealth(health, healthPan, nextID: &nextSplitID, notices: &healthNotices)
healthOut += feedHealth(health, healthMix, nextID: &nextSplitID, notices: &healthNotices)
healthOut += feedHealth(health, healthFaults, nextID: &nextSplitID, notices: &healthNotices)
let beforeTen = MallocInterposerSwift.getStatistics().mallocCount
let tenStarted = monotonicNanoseconds()
healthOut += feedHealth(health, healthTen, nextID: &nextSplitID, notices: &healthNotices)
let tenElapsed = monotonicNanoseconds() - tenStarted
MallocInterposerSwift.unhook()
let healthMallocs = MallocInterposerSwift.getStatistics().mallocCount
let healthTenMallocs = healthMallocs - beforeTen
let healthFrames = healthPan.count + healthMix.count + healthFaults.count + healthTen.count

// Runtime changes (`set`) in place: the pan disabled mid-drag (cancelled), the panel moved
// and disabled, then frames, then both back and a new drag: the changes and the frames
// after them allocate nothing.
let setDrag = panFrames(startingAt: 200_000_000, moves: 200)
let setAfter = panFrames(startingAt: 210_000_000, moves: 200)
feed(path, panFrames(startingAt: 190_000_000, moves: 50), into: &events)  // warm-up
events.removeAll(keepingCapacity: true)
let setTime = setDrag[100].time
let setBefore = Array(setDrag[..<100])
let setRest = Array(setDrag[100...])
MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
feed(path, setBefore, into: &events)
path.engine.setGesture(0, enabled: false, at: setTime, into: &events)
path.engine.setView(1, enabled: false, frame: Rect(x: 300, y: 0, width: 300, height: 600), at: setTime, into: &events)
feed(path, setRest, into: &events)
path.engine.setGesture(0, enabled: true, at: 209_000_000, into: &events)
path.engine.setView(1, enabled: true, frame: Rect(x: 0, y: 0, width: 600, height: 600), at: 209_000_000, into: &events)
feed(path, setAfter, into: &events)
MallocInterposerSwift.unhook()
let setMallocs = MallocInterposerSwift.getStatistics().mallocCount
let setCancelled = events.count { $0.state == .cancelled }

// The output stream: a `GesturePipeline` with touch delivery, the trace and the contacts on
// and the health stage's every rule, each frame drained into a sink as the daemon drains it.
struct CountingSink: PipelineSink {
    var outputs = 0
    var paced = 0
    mutating func receive(_ output: PipelineOutput) {
        outputs &+= 1
        if case .paced = output { paced &+= 1 }
    }
}
let streamed = GesturePipeline(
    configuration: Configuration(
        daemon: DaemonSettings(), model: try kioskModel(),
        devices: [DeviceRule(match: DeviceMatch(), mapping: .identity, health: .everyRule)],
        actions: Array(repeating: GestureActions(), count: 8)))
streamed.engine.touchDeliveryEnabled = true
streamed.engine.traceEnabled = true
streamed.reportsTouches = true
streamed.reportsFiltered = true
// Every continuous gesture's `changed` paced at 60 Hz (`ChangePacer`), as for a coalescing subscriber.
streamed.pacesEvents = true
var streamSink = CountingSink()
func feedStream(_ pipeline: GesturePipeline, _ frames: [TouchFrame], into sink: inout CountingSink) {
    for i in 0..<frames.count {
        pipeline.advance(to: frames[i].time - 1)
        pipeline.handle(frames[i])
        pipeline.drain(into: &sink)
    }
}
feedStream(streamed, panFrames(startingAt: 0, moves: 50), into: &streamSink)
feedStream(streamed, mixedFrames(startingAt: 10_000_000), into: &streamSink)
let streamPan = panFrames(startingAt: 30_000_000, moves: moves)
let streamMix = mixedFrames(startingAt: 50_000_000)
streamSink.outputs = 0
streamSink.paced = 0
MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
feedStream(streamed, streamPan, into: &streamSink)
feedStream(streamed, streamMix, into: &streamSink)
MallocInterposerSwift.unhook()
let streamMallocs = MallocInterposerSwift.getStatistics().mallocCount

MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
let control = [Int](repeating: moves, count: 64)
MallocInterposerSwift.unhook()
let controlCount = MallocInterposerSwift.getStatistics().mallocCount
precondition(control.count == 64)

print(
    "frames \(measured.count) events \(pannedEvents) mallocs \(hot) control \(controlCount)",
    "ns_per_frame \(elapsed / Int64(measured.count))",
    "mixed_frames \(mixed.count) mixed_events \(mixedEvents) mixed_mallocs \(mixedMallocs)",
    "delivery_changes \(changes.count) delivery_mallocs \(deliveryMallocs)",
    "health_frames \(healthFrames) health_contacts \(healthOut) health_mallocs \(healthMallocs)",
    "health_ns_per_ten_finger_frame \(tenElapsed / Int64(healthTen.count)) health_ten_finger_mallocs \(healthTenMallocs)",
    "health_filtered \(health.counts.totalFiltered) health_notices \(healthNotices.count)",
    "health_edge \(health.counts[.edge]) health_outlier \(health.counts[.outlier]) health_jump \(health.counts[.jump])",
    "set_mallocs \(setMallocs) set_cancelled \(setCancelled)",
    "stream_outputs \(streamSink.outputs) stream_paced \(streamSink.paced) stream_mallocs \(streamMallocs)")
