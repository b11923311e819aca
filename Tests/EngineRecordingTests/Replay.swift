import GestureCore
import TestSupport
import Testing
import TouchInput

/// A recording of ../shared/recordings replayed through the normalizer into the pipeline's
/// frame path (geometry, frame stages, engine) on a screen that is the panel's own axis
/// range (1 device unit = 1 px), as `gesturectl replay` does.
struct Replay {
    let harness: PipelineHarness
    let info: TouchDeviceInfo
    /// The frames the normalizer made of the recording.
    let frames: [TouchFrame]
    let sizeMM: (width: Double, height: Double)?

    /// `build` adds the gestures to a model whose screen matches the panel; `desc` is the
    /// device description of an events-only recording; `edit` may change the recorded
    /// events first (in memory). `delivery`: also decide what the application sees
    /// (`harness.touches`).
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
        harness = PipelineHarness(model: try m.build())
        var mapping = DeviceMapping.identity
        mapping.sizeMM = sizeMM
        harness.attach(device: DeviceID(1), name: info.name, x: info.x, y: info.y, mapping: mapping)
        harness.engine.touchDeliveryEnabled = delivery
        let normalizer = try #require(TouchNormalizer(device: DeviceID(1), info: info))
        var frames: [TouchFrame] = []
        for event in recording.events where normalizer.feed(event) { frames.append(normalizer.frame) }
        harness.run(frames)
        harness.settle()
        self.frames = frames
        self.sizeMM = sizeMM
    }

    var log: [String] { harness.log }

    func count(_ entry: String) -> Int { harness.log.filter { $0 == entry }.count }
}
