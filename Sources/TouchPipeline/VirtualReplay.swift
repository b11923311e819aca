import GestureCore
import TouchInput

/// A recording through a `GesturePipeline` in virtual time, as the live loop would run it
/// (the offline twin of the daemon, `gesturectl replay`): before each recorded event, the
/// pipeline's timers (the stages' and the engine's) due strictly before it fire; at the
/// end, contacts still down end as cancelled at the last event's time and time runs on
/// until no deadline is pending.
public struct VirtualReplay {
    public let recording: EvemuRecording
    public let pipeline: GesturePipeline
    /// The recording's device's warnings (units, calibration), worded, if any.
    public let warning: String?
    private let device: DeviceID

    /// Attaches the recording's device. Nil when libmtdev cannot take it.
    public init?(recording: EvemuRecording, pipeline: GesturePipeline) {
        guard let (device, warning) = pipeline.addDevice(recording.info) else { return nil }
        self.recording = recording
        self.pipeline = pipeline
        self.warning = warning
        self.device = device
    }

    /// The time `t` counts from: the first recorded event.
    public var origin: Microseconds { recording.events.first?.time ?? 0 }

    /// Plays everything, draining the pipeline's outputs into `sink` after each step (a
    /// recorded event, a deadline, the end). `reach(t)` runs before the pipeline moves to
    /// `t` (to pace it, serve a loop, or perform what is due then).
    public func run<Sink: PipelineSink>(into sink: inout Sink, reach: (Microseconds) -> Void = { _ in }) {
        guard let index = pipeline.index(of: device) else { return }
        for event in recording.events {
            while let deadline = pipeline.nextDeadline, deadline < event.time {
                reach(deadline)
                pipeline.advance(to: deadline)
                pipeline.drain(into: &sink)
            }
            reach(event.time)
            pipeline.feed(event, device: index)
            pipeline.drain(into: &sink)
        }
        pipeline.finish(at: recording.events.last?.time ?? 0)
        pipeline.drain(into: &sink)
    }
}
