// Counts the heap allocations of the engine's hot path with ordo-one's malloc interposer.
// Run under LD_PRELOAD=libMallocInterposerSwift.so (GestureCoreTests does); prints one line:
//   frames <n> events <n> mallocs <n> control <n> ns_per_frame <n>
// `control` counts one deliberate allocation, proving the interposer is really loaded.

#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import MallocInterposerSwift
import TestSupport

/// A kiosk-like model: every recognizer type competing for the same contacts.
func kioskModel() throws -> GestureModel {
    var m = ModelBuilder()
    m.view("panel", frame: Rect(x: 0, y: 0, width: 600, height: 600))
    m.gesture("pan", .pan)
    m.gesture("swipe", .swipe) { $0.parameters.directions = [.left, .right] }
    m.gesture("tap", .tap)
    m.gesture("double-tap", .tap) { $0.parameters.taps = 2 }
    m.gesture("press", .longPress, on: "panel")
    m.gesture("pinch", .pinch, on: "panel")
    m.gesture("rotate", .rotation, on: "panel")
    m.gesture("edge", .edgePan) { $0.parameters.edges = [.left] }
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

let moves = 1000
let engine = GestureEngine(model: try kioskModel())
let panel = FrameBuilder()
_ = engine.attach(device: panel.device, name: "probe panel", x: panel.x, y: panel.y, mapping: .identity)
var events: [GestureEvent] = []
events.reserveCapacity(4 * moves)

func feed(_ engine: GestureEngine, _ frames: [TouchFrame], into events: inout [GestureEvent]) {
    // Index loop: an unspecialized array iterator would allocate in a debug build.
    for i in 0..<frames.count {
        let frame = frames[i]
        if let deadline = engine.nextDeadline, deadline < frame.time { engine.advance(to: deadline, into: &events) }
        engine.handle(frame, into: &events)
    }
}

// Warm up once (first-use paths), then measure a second, identical pan.
feed(engine, panFrames(startingAt: 0, moves: 50), into: &events)
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
feed(engine, measured, into: &events)
let elapsed = monotonicNanoseconds() - started
MallocInterposerSwift.unhook()
let hot = MallocInterposerSwift.getStatistics().mallocCount

MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
let control = [Int](repeating: moves, count: 64)
MallocInterposerSwift.unhook()
let controlCount = MallocInterposerSwift.getStatistics().mallocCount
precondition(control.count == 64)

print("frames \(measured.count) events \(events.count) mallocs \(hot) control \(controlCount)",
      "ns_per_frame \(elapsed / Int64(measured.count))")
