// Arbitrary evdev streams on real touchscreens' descriptions, through the daemon's
// `GesturePipeline` (normalizer, frame stages, engine; each normalizer frame observed too),
// under a config with every gesture type, overlapping views, failure requirements and
// simultaneous pairs.
// Invariants:
// - contacts: a contact id begins once, moves only while down, ends exactly once, appears
//   twice in a frame only as `began` and its end (a touch shorter than a frame), and
//   nothing is left down once the device goes (`cancelAll`);
// - touch delivery (on for inputs whose first byte is odd): what the application sees of
//   a contact begins at most once, moves and ends only after it began, ends once, and
//   nothing is left down on the application's side once the device goes;
// - gestures: a discrete type reports only `recognized`; a continuous one `began`, then
//   `changed`, then one `ended` or `cancelled`, never an event after its end without a new
//   `began`, and none is left running once every contact is gone and time has run out;
// - touch health (every rule on for inputs whose second bit is set): a contact filtered
//   before it was shown never reaches the engine or the application afterwards, and every
//   contact shown to the application ends once (the delivery invariants above);
// - the clone (with touch delivery, for inputs whose third bit is set: the application's
//   touches encoded by a `TouchEncoder` as for a grabbed panel's uinput clone, instead of
//   read from the engine): every frame ends in one `SYN_REPORT`; a tracking id starts only
//   on a slot that was free before the frame (libinput ignores a new id on a slot released
//   in the same frame) and ends once; as many touches go down on it as the application was
//   shown (a contact split off a jump included), and none is left down once the device goes.
import FuzzSupport
import GestureConfig
import GestureCore
import TouchInput
import TouchPipeline

#if canImport(Glibc)
import Glibc
#endif

let recordings = ProcessInfoEnvironment.value("GESTURED_FUZZ_RECORDINGS") ?? "../shared/recordings"
let devices: [TouchDeviceInfo] = [
    "google-pixel-tablet-nvt-1-finger-swipe.evemu",  // protocol B, resolution, tool type
    "atmel-maxtouch-1-finger-fast-taps.evemu",  // protocol B, no resolution
    "ntrig-protocol-A.desc",  // protocol A through libmtdev
    "quanta-optical.desc",  // single touch
    "dell-canvas-advanced-silicon-touch-2-4-5-finger.evemu",  // 10 slots
].map { name in
    do {
        return try EvemuRecording.read(path: recordings + "/" + name).info
    } catch {
        FuzzCheck.fail("cannot read \(recordings)/\(name) (set GESTURED_FUZZ_RECORDINGS): \(error)")
    }
}

let fuzzText = """
    [screen]
    width = 800
    height = 480

    [view.left]
    frame = { x = 0, y = 0, width = "50%", height = "100%" }

    [view.inner]
    parent = "left"
    frame = { x = "10%", y = "10%", width = "50%", height = "50%" }

    [view.strip]
    frame = { x = "90%", y = 0, width = "10%", height = "100%" }
    passthrough = false

    [gesture.single]
    type = "tap"
    view = "inner"
    require_to_fail = ["double"]

    [gesture.double]
    type = "tap"
    view = "inner"
    taps = 2
    require_to_fail = ["triple"]

    [gesture.triple]
    type = "tap"
    view = "inner"
    taps = 3

    [gesture.two]
    type = "tap"
    touches = 2

    [gesture.press]
    type = "long-press"
    min_duration = "300ms"
    delays_touches_began = true

    [gesture.press2]
    type = "long-press"
    view = "left"
    touches = 2
    taps = 1

    [gesture.drag]
    type = "pan"
    view = "left"
    require_to_fail = ["fling", "edge"]

    [gesture.fling]
    type = "swipe"
    directions = ["left", "right", "up", "down"]

    [gesture.fling3]
    type = "swipe"
    touches = 3
    directions = ["down"]

    [gesture.zoom]
    type = "pinch"
    simultaneous_with = ["turn"]

    [gesture.turn]
    type = "rotation"
    cancels_touches = false
    delays_touches_ended = false

    [gesture.edge]
    type = "edge-pan"
    edges = ["left", "right", "top", "bottom"]
    """
let configuration = try! ConfigLoader.parse(text: fuzzText, file: "fuzz.toml")
let model = configuration.model
/// The same gestures with every health rule on for every device (short times, so that
/// short streams cross them).
let guarded = try! ConfigLoader.parse(
    text: fuzzText + """

        [[device]]

        [device.health]
        mask = [{ x = 0, y = 0, width = "5%", height = "5%" }]
        min_contact = "60ms"
        far_apart = "150mm"
        aligned = "0.5mm"
        spot_count = 3
        jump = "20mm"
        stuck_after = "2s"
        noisy_above = 5
        silent_after = "1s"
        """, file: "fuzz-health.toml")

/// evdev codes the byte stream picks from most of the time (so that streams make contacts);
/// a raw (type, code) is picked too, so what a device does not advertise is covered.
enum Code {
    static let syn: UInt16 = 0, key: UInt16 = 1, abs: UInt16 = 3
    static let report: UInt16 = 0, mtReport: UInt16 = 2, dropped: UInt16 = 3
    static let btnTouch: UInt16 = 0x14a
    static let absX: UInt16 = 0x00, absY: UInt16 = 0x01, pressure: UInt16 = 0x18
    static let slot: UInt16 = 0x2f, touchMajor: UInt16 = 0x30, positionX: UInt16 = 0x35, positionY: UInt16 = 0x36
    static let toolType: UInt16 = 0x37, trackingID: UInt16 = 0x39, mtPressure: UInt16 = 0x3a
}

/// One 6-byte record: what, a small selector, a 16-bit value, and the time since the last
/// event in 10 µs (up to 0.65 s, so that timers fire between events).
func event(_ r: UnsafeRawBufferPointer.SubSequence, time: Int64, info: TouchDeviceInfo) -> RawInputEvent {
    let kind = r[r.startIndex]
    let small = r[r.startIndex + 1]
    let wide = Int32(Int16(bitPattern: UInt16(r[r.startIndex + 2]) | UInt16(r[r.startIndex + 3]) << 8))
    func position(_ axis: AxisRange) -> Int32 {
        let span = max(1, Int64(axis.maximum) - Int64(axis.minimum) + 40)
        return Int32(Int64(axis.minimum) - 20 + (Int64(wide) + 32768) * span / 65536)
    }
    let (type, code, value): (UInt16, UInt16, Int32) =
        switch kind % 16 {
        case 2: (Code.abs, Code.slot, Int32(small % 12))
        case 3: (Code.abs, Code.trackingID, small < 64 ? -1 : wide & 0xffff)
        case 4: (Code.abs, Code.positionX, position(info.x))
        case 5: (Code.abs, Code.positionY, position(info.y))
        case 6: (Code.abs, Code.toolType, Int32(small % 3))
        case 7: (Code.key, Code.btnTouch, Int32(small & 1))
        case 8: (Code.abs, Code.absX, position(info.x))
        case 9: (Code.abs, Code.absY, position(info.y))
        case 10: (Code.abs, [Code.mtPressure, Code.touchMajor, Code.pressure][Int(small) % 3], wide)
        case 11: (Code.syn, Code.mtReport, 0)
        case 12: (Code.syn, Code.dropped, 0)
        case 13: (UInt16(small % 5), UInt16(bitPattern: Int16(truncatingIfNeeded: wide)), wide)
        default: (Code.syn, Code.report, 0)
        }
    return RawInputEvent(type: type, code: code, value: value, time: time)
}

/// What has been seen of contacts and gestures in one run: the normalizer's frames, and
/// the pipeline's stream as its sink.
struct Observer: PipelineSink {
    var down: Set<Int32> = []
    var ended: Set<Int32> = []
    var running = [Bool](repeating: false, count: model.gestures.count)

    mutating func frame(_ frame: TouchFrame) {
        // A touch that begins and lifts between two reports is one contact reported twice
        // in its frame, `began` then its end; nothing else appears twice.
        var inFrame: [Int32: TouchPhase] = [:]
        for contact in frame.contacts {
            if let first = inFrame[contact.id] {
                FuzzCheck.require(
                    first == .began && contact.phase.isTerminal,
                    "contact \(contact.id) twice in one frame: \(first), then \(contact.phase)")
            }
            inFrame[contact.id] = contact.phase
            switch contact.phase {
            case .began:
                FuzzCheck.require(!down.contains(contact.id) && !ended.contains(contact.id), "contact \(contact.id) began again")
                down.insert(contact.id)
            case .moved, .stationary:
                FuzzCheck.require(down.contains(contact.id), "contact \(contact.id) \(contact.phase) while not down")
            case .ended, .cancelled:
                FuzzCheck.require(down.remove(contact.id) != nil, "contact \(contact.id) \(contact.phase) while not down")
                ended.insert(contact.id)
            }
        }
    }

    /// Contacts the application has been shown and not yet seen end.
    var shown: Set<Int32> = []
    var shownEnded: Set<Int32> = []

    /// Contacts the health stage filtered before anyone saw them.
    var filteredUnseen: Set<Int32> = []

    mutating func receive(_ output: PipelineOutput) {
        switch output {
        case .filtered(let f, _): if !f.wasShown { filteredUnseen.insert(f.id) }
        case .contact(let t):
            FuzzCheck.require(!filteredUnseen.contains(t.id), "filtered contact \(t.id) reached the engine (\(t.phase))")
        case .applicationTouch(let change): delivered(change)
        case .event(let event): self.event(event)
        case .paced(let event, let period, let coalesced):
            // What the actions get: a running gesture's `changed`, never after its end.
            let name = model.gestures[event.gesture].name
            FuzzCheck.require(event.state == .changed && running[event.gesture], "\(name) paced \(event.state) while not running")
            FuzzCheck.require(coalesced >= 1 && period > 0, "\(name) paced for \(coalesced) changes at \(period) µs")
        case .trace, .health, .runtime: break
        }
    }

    private mutating func delivered(_ change: TouchChange) {
        switch change.kind {
        case .began:
            FuzzCheck.require(!filteredUnseen.contains(change.id), "filtered contact \(change.id) reached the application")
            FuzzCheck.require(
                !shown.contains(change.id) && !shownEnded.contains(change.id),
                "the application saw contact \(change.id) begin twice")
            shown.insert(change.id)
        case .moved:
            FuzzCheck.require(shown.contains(change.id), "the application saw contact \(change.id) move before it began")
        case .ended, .cancelled:
            FuzzCheck.require(
                shown.remove(change.id) != nil,
                "the application saw contact \(change.id) \(change.kind) while not down")
            shownEnded.insert(change.id)
        }
    }

    private mutating func event(_ event: GestureEvent) {
        let g = event.gesture
        let spec = model.gestures[g]
        guard spec.type.isContinuous else {
            FuzzCheck.require(event.state == .recognized, "\(spec.name) (\(spec.type)) reported \(event.state)")
            return
        }
        switch event.state {
        case .began:
            FuzzCheck.require(!running[g], "\(spec.name) began while running")
            running[g] = true
        case .changed:
            FuzzCheck.require(running[g], "\(spec.name) changed while not running")
        case .ended, .cancelled:
            FuzzCheck.require(running[g], "\(spec.name) \(event.state) while not running")
            running[g] = false
        default:
            FuzzCheck.fail("\(spec.name) (\(spec.type)) reported \(event.state)")
        }
    }
}

/// A grabbed panel's clone as libinput reads it: slots taken and released by tracking ids.
final class CloneSink: TouchSink {
    /// More than the engine ever shows at once, so a touch is never left out for want of a slot.
    let slotCount = 128
    let hasPressure = true
    let hasTouchMajor = true
    private var down = [Bool](repeating: false, count: 128)
    private(set) var began = 0
    private(set) var ended = 0

    var downCount: Int { down.count(where: { $0 }) }

    func write(_ frame: [RawInputEvent], answering panelTime: Microseconds?) {
        var slot = 0
        var released = Set<Int>()
        for (k, e) in frame.enumerated() {
            let last = k == frame.count - 1
            let isReport = e.type == Code.syn && e.code == Code.report
            FuzzCheck.require(isReport == last, "a clone frame without exactly one SYN_REPORT, at its end")
            guard e.type == Code.abs else { continue }
            switch e.code {
            case Code.slot:
                FuzzCheck.require(e.value >= 0 && Int(e.value) < slotCount, "clone slot \(e.value) out of range")
                slot = Int(e.value)
            case Code.trackingID where e.value >= 0:
                FuzzCheck.require(!down[slot], "a tracking id on clone slot \(slot), which is down")
                FuzzCheck.require(!released.contains(slot), "a tracking id on clone slot \(slot), released in the same frame")
                down[slot] = true
                began += 1
            case Code.trackingID:
                FuzzCheck.require(down[slot], "clone slot \(slot) released while not down")
                down[slot] = false
                released.insert(slot)
                ended += 1
            default:
                break
            }
        }
    }
}

runFuzzer { input in
    guard input.count > 1 else { return }
    let info = devices[Int(input[0]) % devices.count]
    let pipeline = GesturePipeline(configuration: input[0] & 2 == 2 ? guarded : configuration)
    guard let (id, _) = pipeline.addDevice(info), let index = pipeline.index(of: id) else { return }
    pipeline.reportsFiltered = true
    pipeline.reportsTouches = true
    // Every continuous gesture paced at 60 Hz, as for a coalescing subscriber.
    pipeline.pacesEvents = true
    let normalizer = pipeline.devices[index].normalizer
    pipeline.engine.touchDeliveryEnabled = input[0] & 1 == 1
    let clone = input[0] & 5 == 5 ? CloneSink() : nil
    if let clone { pipeline.setEncoder(TouchEncoder(device: id, sink: clone, cancel: input[0] & 8 == 8 ? .palm : .release), for: id) }
    var observer = Observer()
    var frames = 0
    func flush() {
        if normalizer.counters.frames != frames {
            frames = normalizer.counters.frames
            observer.frame(normalizer.frame)
        }
        pipeline.drain(into: &observer)
    }
    var time: Int64 = 1_000_000
    var offset = 1
    while offset + 6 <= input.count {
        let record = input[offset..<offset + 6]
        offset += 6
        time += Int64(UInt16(record[record.startIndex + 4]) | UInt16(record[record.startIndex + 5]) << 8) * 10
        while let deadline = pipeline.nextDeadline, deadline < time {
            pipeline.advance(to: deadline)
            flush()
        }
        pipeline.feed(event(record, time: time, info: info), device: index)
        flush()
    }
    // The end: whatever is down is cancelled and time runs out, then the device goes.
    pipeline.finish(at: time)
    flush()
    pipeline.removeDevice(id, at: time)
    flush()
    FuzzCheck.require(observer.down.isEmpty, "contacts \(observer.down.sorted()) left down after the device went")
    FuzzCheck.require(observer.shown.isEmpty, "contacts \(observer.shown.sorted()) left down on the application's side")
    if let clone {
        FuzzCheck.require(clone.downCount == 0 && clone.began == clone.ended, "\(clone.downCount) touches left down on the clone")
        // The encoder finds a touch's panel contact among the latest 128: with no more in
        // the run, every touch the application was shown goes down on the clone.
        let shown = pipeline.engine.touchDeliveryCounts.passed
        if observer.ended.count + observer.down.count <= 128 {
            FuzzCheck.require(clone.began == shown, "\(clone.began) touches went down on the clone, the application was shown \(shown)")
        }
    }
    let stillRunning = model.gestures.indices.filter { observer.running[$0] }.map { model.gestures[$0].name }
    FuzzCheck.require(stillRunning.isEmpty, "gestures \(stillRunning) still running with no contact down")
}
