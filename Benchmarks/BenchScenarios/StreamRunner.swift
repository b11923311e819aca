import GestureConfig
import GestureControl
import GestureCore
import GestureDaemon
import SystemLoop
import TouchInput
import TouchPipeline

/// Feeds a stream through the daemon's `GesturePipeline` (normalizer -> engine) one frame at
/// a time, looping forever: at the end it lets the pipeline finish (contacts still down are
/// cancelled, pending timers fire) and starts again later in time, so engine time only grows.
///
/// `step()` does what the daemon's loop does per `SYN_REPORT`: feed the frame's events, then
/// drain the pipeline's output stream (the daemon's flush; here its sink counts the events
/// and health notices). With `delivery`, each device also has a `TouchForwarder` (as a
/// grabbed panel has), writing into `/dev/null` what the application sees (the same
/// records, a `write(2)` per frame, as to uinput, which the host lacks), which the drain
/// sends first, as the daemon's does. With `health`, every device has these health
/// settings; without, the defaults.
public final class StreamRunner {
    public let pipeline: GesturePipeline
    public let stream: InputStream
    private var frame = 0
    private var timeOffset: Int64 = 0
    /// What the stream handed on so far (so the work cannot be optimized away, and to report it).
    private var counts = OutputCounts()
    /// Gesture events emitted so far.
    public var emitted: Int { counts.events }
    /// Health notices (state changes, masked and released spots) drained so far.
    public var healthNotices: Int { counts.healthNotices }
    /// Frames fed so far.
    public private(set) var frames = 0

    /// The first gesture, turned off and on by a `set` before every frame (`prepare`).
    private let toggled: String?
    private var enabled = true

    public init(
        stream: InputStream, model: GestureModel, delivery: Bool = false, health: TouchHealthSettings? = nil,
        runtimeSet: Bool = false
    ) throws {
        precondition(stream.frameCount > 0, "an empty stream")
        let guarded = health.map { [DeviceRule(match: DeviceMatch(), mapping: .identity, health: $0)] } ?? []
        let configuration = Configuration(
            daemon: DaemonSettings(), model: model, devices: guarded,
            actions: Array(repeating: GestureActions(), count: model.gestures.count))
        pipeline = GesturePipeline(configuration: configuration)
        self.stream = stream
        toggled = runtimeSet ? model.gestures.first?.name : nil
        for info in stream.devices {
            guard let (id, _) = pipeline.addDevice(info) else { preconditionFailure("device '\(info.name)' cannot be attached") }
            guard delivery else { continue }
            let sink = try InputEventFile(
                path: "/dev/null", slotCount: max(1, info.slotCount), hasPressure: info.hasPressure,
                hasTouchMajor: info.hasTouchMajor)
            pipeline.setEncoder(TouchEncoder(device: id, sink: TouchForwarder(virtual: sink, clock: .monotonic), cancel: .release), for: id)
        }
    }

    /// Before the next frame: with `runtimeSet`, a `set` of the first gesture's `enabled`
    /// (flipped each time) as a control client's would be performed, at the frame's time.
    /// Nothing otherwise. Outside `step`, so the latency rows time the frame after it alone.
    public func prepare() {
        guard let toggled else { return }
        enabled.toggle()
        let time = stream.events[frame == 0 ? 0 : stream.frameEnds[frame - 1]].time + timeOffset
        do {
            _ = try pipeline.perform(.set(SetRequest(target: .gesture(toggled), enabled: enabled)), by: .script, at: time)
        } catch {
            preconditionFailure("set \(toggled): \(error.message)")
        }
    }

    /// Feeds one frame.
    @inline(__always)
    public func step() {
        let start = frame == 0 ? 0 : stream.frameEnds[frame - 1]
        let end = stream.frameEnds[frame]
        let device = stream.frameDevices[frame]
        for i in start..<end {
            var event = stream.events[i]
            event.time += timeOffset
            pipeline.feed(event, device: device)
        }
        pipeline.drain(into: &counts)
        frames &+= 1
        frame += 1
        if frame == stream.frameCount { wrap() }
    }

    private func wrap() {
        let end = stream.endTime + timeOffset
        pipeline.finish(at: end)
        pipeline.drain(into: &counts)
        frame = 0
        timeOffset = (pipeline.nextDeadline.map { max($0, end) } ?? end) + 1_000_000
    }
}

/// The benchmark's sink: counts what it is handed.
struct OutputCounts: PipelineSink {
    var events = 0
    var healthNotices = 0

    @inline(__always) mutating func receive(_ output: PipelineOutput) {
        switch output {
        case .event: events &+= 1
        case .health: healthNotices &+= 1
        default: break
        }
    }
}
