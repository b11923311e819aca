import GestureConfig
import GestureCore
import GestureDaemon
import TouchInput
import TouchPipeline

/// Feeds a stream through the daemon's `GesturePipeline` (normalizer -> engine) one frame at
/// a time, looping forever: at the end it lets the pipeline finish (contacts still down are
/// cancelled, pending timers fire) and starts again later in time, so engine time only grows.
///
/// `step()` does what the daemon's loop does per `SYN_REPORT`: feed the frame's events, then
/// consume and clear the event buffer (here: count it) and drain the health stages' notices
/// (the daemon's flush: undrained, a stage's notice buffer grows, and allocates, for as long
/// as the run lasts). With `delivery`, each device also has
/// a `TouchForwarder` (as a grabbed panel has), writing into `/dev/null` what the application
/// sees (the same records, a `write(2)` per frame, as to uinput, which the host lacks), and
/// the step ends with the daemon's output stage, `forwardTouches`.
public final class StreamRunner {
    public let pipeline: GesturePipeline
    public let stream: InputStream
    private var frame = 0
    private var timeOffset: Int64 = 0
    /// Gesture events emitted so far (so the work cannot be optimized away, and to report it).
    public private(set) var emitted = 0
    /// Frames fed so far.
    public private(set) var frames = 0

    private let delivery: Bool
    /// The first gesture, turned off and on by a `set` before every frame (`prepare`).
    private let toggled: String?
    private var enabled = true
    /// The health stages' notices, drained after every frame into this reused buffer.
    private var notices: [HealthNotice] = []
    /// Health notices (state changes, masked and released spots) drained so far.
    public private(set) var healthNotices = 0

    public init(
        stream: InputStream, model: GestureModel, delivery: Bool = false, health: Bool = false, runtimeSet: Bool = false
    ) throws {
        precondition(stream.frameCount > 0, "an empty stream")
        let guarded = DeviceRule(match: DeviceMatch(), mapping: .identity, health: .everyRule)
        let configuration = Configuration(
            daemon: DaemonSettings(), model: model, devices: health ? [guarded] : [],
            actions: Array(repeating: GestureActions(), count: model.gestures.count))
        pipeline = GesturePipeline(configuration: configuration)
        self.stream = stream
        self.delivery = delivery
        toggled = runtimeSet ? model.gestures.first?.name : nil
        notices.reserveCapacity(64)
        for info in stream.devices {
            guard let (id, _) = pipeline.addDevice(info) else { preconditionFailure("device '\(info.name)' cannot be attached") }
            guard delivery else { continue }
            let sink = try InputEventFile(
                path: "/dev/null", slotCount: max(1, info.slotCount), hasPressure: info.hasPressure,
                hasTouchMajor: info.hasTouchMajor)
            pipeline.setEncoder(TouchEncoder(device: id, sink: TouchForwarder(virtual: sink), cancel: .release), for: id)
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
        if delivery { pipeline.forwardTouches() }
        emitted &+= pipeline.events.count
        pipeline.events.removeAll(keepingCapacity: true)
        drainHealth()
        frames &+= 1
        frame += 1
        if frame == stream.frameCount { wrap() }
    }

    private func wrap() {
        let end = stream.endTime + timeOffset
        pipeline.finish(at: end)
        if delivery { pipeline.forwardTouches() }
        emitted &+= pipeline.events.count
        pipeline.events.removeAll(keepingCapacity: true)
        drainHealth()
        frame = 0
        timeOffset = (pipeline.nextDeadline.map { max($0, end) } ?? end) + 1_000_000
    }

    @inline(__always) private func drainHealth() {
        let stages = pipeline.path.stages.health.devices
        for d in 0..<stages.count { stages[d].drainNotices(into: &notices) }
        healthNotices &+= notices.count
        notices.removeAll(keepingCapacity: true)
    }
}
