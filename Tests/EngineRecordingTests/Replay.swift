import GestureConfig
import GestureCore
import TestSupport
import Testing
import TouchInput
import TouchPipeline

/// A recording of ../shared/recordings replayed as `gesturectl replay` replays it (a
/// `VirtualReplay` through a `GesturePipeline`), on a screen that is the panel's own axis
/// range (1 device unit = 1 px), its output stream kept.
struct Replay {
    let info: TouchDeviceInfo
    /// The frames the pipeline's normalizer made of the recording.
    let frames: [TouchFrame]
    let stream: OutputRecorder
    let pipeline: GesturePipeline
    /// The device's warning (units, calibration), if any.
    let warning: String?

    /// `build` adds the gestures to a model whose screen matches the panel; `desc` is the
    /// device description of an events-only recording; `edit` may change the recorded
    /// events first (in memory). `delivery`: also decide what the application sees
    /// (`touches`).
    init(
        _ file: String, desc: String? = nil, sizeMM: (width: Double, height: Double)? = nil, delivery: Bool = false,
        edit: (inout [RawInputEvent]) -> Void = { _ in }, _ build: (inout ModelBuilder) -> Void
    ) throws {
        var recording = try EvemuRecording.read(path: SharedRecordings.path(file), descPath: desc.map(SharedRecordings.path))
        edit(&recording.events)
        info = recording.info
        var m = ModelBuilder(
            screen: ScreenSize(
                width: Double(info.x.maximum - info.x.minimum + 1),
                height: Double(info.y.maximum - info.y.minimum + 1)))
        build(&m)
        let model = try m.build()
        var mapping = DeviceMapping.identity
        mapping.sizeMM = sizeMM
        pipeline = GesturePipeline(
            configuration: Configuration(
                daemon: DaemonSettings(), model: model, devices: [DeviceRule(match: DeviceMatch(), mapping: mapping)],
                actions: Array(repeating: GestureActions(), count: model.gestures.count)))
        pipeline.engine.traceEnabled = true
        pipeline.engine.touchDeliveryEnabled = delivery
        let replay = try #require(VirtualReplay(recording: recording, pipeline: pipeline))
        warning = replay.warning
        let normalizer = try #require(pipeline.devices.first).normalizer
        var frames: [TouchFrame] = []
        func takeFrame() {
            if normalizer.counters.frames > frames.count { frames.append(normalizer.frame) }
        }
        var stream = OutputRecorder()
        replay.run(into: &stream) { _ in takeFrame() }
        takeFrame()
        self.frames = frames
        self.stream = stream
    }

    var engine: GestureEngine { pipeline.engine }
    var events: [GestureEvent] { stream.events }
    var trace: [TraceRecord] { stream.trace }
    /// What the application saw, with `delivery`.
    var touches: [TouchChange] { stream.applicationTouches }

    /// "name state" per event.
    var log: [String] { events.map { "\(engine.model.gestures[$0.gesture].name) \($0.state)" } }

    func count(_ entry: String) -> Int { log.filter { $0 == entry }.count }

    /// The events of one gesture, by name.
    func events(of name: String) -> [GestureEvent] { events.filter { engine.model.gestures[$0.gesture].name == name } }

    /// The trace in its printed form, `[view/gesture] from -> to (reason)`.
    var traceLog: [String] { trace.map { $0.describe(in: engine.model) } }

    /// "id kind" per application-side change, with "+delay ms" when it was held back.
    var touchLog: [String] { touches.map { "\($0.id) \($0.kind)" + ($0.delay > 0 ? " +\($0.delay / 1000)ms" : "") } }
}
