import ActionDispatch
import GestureControl
import GestureCore
import Logging
import SystemLoop
import TouchInput
import TouchPipeline

/// A recording played as if it were a touchscreen (`gestured --replay`), for tests and
/// benchmarks: attached at start, silent until `start()` (the `replay-start` command), then
/// fed at the recorded pace divided by `speed` on its own timer. Events are stamped with
/// the loop's time they are played at, so the engine's timers and the recording share one
/// clock. After the last event the device stays attached and idle.
final class ReplayInput: InputSource {
    enum State: Equatable {
        case waiting
        case playing(since: Microseconds)
        case finished
    }

    let path: String
    private let recording: EvemuRecording
    private let speed: Double
    private let loop: EventLoop
    private let pipeline: GesturePipeline
    private let logger: Logger
    private let id: DeviceID
    private var timer: DeadlineTimer!
    private var next = 0
    private(set) var state = State.waiting

    /// Attaches the recording's device. Throws when libmtdev cannot take it.
    init(
        path: String, recording: EvemuRecording, speed: Double, loop: EventLoop, pipeline: GesturePipeline,
        logger: Logger
    ) throws(StartupError) {
        let id = try pipeline.attachDevice(recording.info, source: "replay", path: path, logger: logger)
        self.path = path
        self.recording = recording
        self.speed = speed
        self.loop = loop
        self.pipeline = pipeline
        self.logger = logger
        self.id = id
        do {
            timer = try loop.makeTimer { [unowned self] in self.drain() }
        } catch {
            throw StartupError(source: "replay", message: "\(error)")
        }
    }

    /// Starts playing; the reply of `replay-start`.
    func start() -> ControlReply {
        guard state == .waiting else {
            return .failure(ControlError(code: "replay-started", message: "the replay was already started"))
        }
        let start = loop.now()
        state = .playing(since: start)
        logger.info("replay: playing \(path) (\(recording.events.count) events) at speed \(speed)")
        drain()
        // The start on the loop's clock (CLOCK_MONOTONIC in the daemon) lets a benchmark know when each recorded frame was due.
        return .success(
            .object([
                ("events", .number(Double(recording.events.count))),
                ("duration_s", .number(Double(duration) / 1_000_000 / speed)),
                ("started_monotonic_us", .number(Double(start))),
            ]))
    }

    /// The recording's length, first to last event.
    private var duration: Microseconds {
        guard let first = recording.events.first, let last = recording.events.last else { return 0 }
        return last.time - first.time
    }

    /// When the recorded event at `index` is due on the loop's clock.
    private func due(_ index: Int, since start: Microseconds) -> Microseconds {
        start + Microseconds(Double(recording.events[index].time - recording.events[0].time) / speed)
    }

    func drain() {
        guard case .playing(let start) = state else { return }
        let now = loop.now()
        let events = recording.events
        guard let index = pipeline.index(of: id) else { return }
        while next < events.count {
            let time = due(next, since: start)
            guard time <= now else { break }
            var event = events[next]
            event.time = time
            pipeline.feed(event, device: index)
            next += 1
        }
    }

    /// Arms the timer for the next recorded frame after the wake's flush, as a device's next
    /// frame costs nothing before this one's lines go out (`floor.c` re-arms after its line too).
    func flushed() {
        guard case .playing(let start) = state else { return }
        if next < recording.events.count {
            timer.set(due(next, since: start))
        } else {
            timer.set(nil)
            state = .finished
            logger.info("replay: \(path) finished; the device stays attached")
        }
    }

    func path(of device: DeviceID) -> String? { device == id ? path : nil }

    var unusable: [UnusableDevice] { [] }

    var grabImpossible: String? { "not possible: the input is a recording, not a device" }
}
