import GestureConfig
import GestureCore
import GestureDaemon
import TouchInput

/// Feeds a stream through the daemon's `GesturePipeline` (normalizer -> engine) one frame at
/// a time, looping forever: at the end it lets the pipeline finish (contacts still down are
/// cancelled, pending timers fire) and starts again later in time, so engine time only grows.
///
/// `step()` does what the daemon's loop does per `SYN_REPORT`: feed the frame's events, then
/// consume and clear the event buffer (here: count it).
public final class StreamRunner {
    public let pipeline: GesturePipeline
    public let stream: InputStream
    private var frame = 0
    private var timeOffset: Int64 = 0
    /// Gesture events emitted so far (so the work cannot be optimized away, and to report it).
    public private(set) var emitted = 0
    /// Frames fed so far.
    public private(set) var frames = 0

    public init(stream: InputStream, model: GestureModel) {
        precondition(stream.frameCount > 0, "an empty stream")
        let configuration = Configuration(
            daemon: DaemonSettings(), model: model, devices: [],
            actions: Array(repeating: GestureActions(), count: model.gestures.count))
        pipeline = GesturePipeline(configuration: configuration)
        self.stream = stream
        for info in stream.devices {
            guard pipeline.addDevice(info) != nil else { preconditionFailure("device '\(info.name)' cannot be attached") }
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
        emitted &+= pipeline.events.count
        pipeline.events.removeAll(keepingCapacity: true)
        frames &+= 1
        frame += 1
        if frame == stream.frameCount { wrap() }
    }

    private func wrap() {
        let end = stream.endTime + timeOffset
        pipeline.finish(at: end)
        emitted &+= pipeline.events.count
        pipeline.events.removeAll(keepingCapacity: true)
        frame = 0
        timeOffset = (pipeline.nextDeadline.map { max($0, end) } ?? end) + 1_000_000
    }
}
