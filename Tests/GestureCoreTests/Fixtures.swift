import GestureCore
import TestSupport
import Testing

// The default test panel: 1000 x 600 px screen, 250 x 150 mm (1 px = 0.25 mm), so
// 3 mm = 12 px, 10 mm = 40 px, 10 pt = 6.23 px, 5 mm = 20 px.

/// A harness over `model` with the default panel attached.
func harness(_ model: GestureModel, builder: FrameBuilder = FrameBuilder()) -> PipelineHarness {
    let h = PipelineHarness(model: model)
    h.attach(builder)
    return h
}

/// Runs `frames` through a fresh harness of `model`, then fires every remaining deadline.
func run(_ model: GestureModel, _ build: (inout FrameBuilder) -> Void) -> PipelineHarness {
    var b = FrameBuilder()
    build(&b)
    let h = harness(model, builder: b)
    h.run(b.frames)
    h.settle()
    #expect(
        h.engine.snapshot().engineBugs == 0,
        "illegal transitions: \(h.traceLog.filter { $0.hasSuffix("(engine bug: illegal transition, refused)") })")
    return h
}

/// One gesture of `type` on the root view.
func single(_ type: GestureType, _ configure: (inout GestureSpec) -> Void = { _ in }) throws -> GestureModel {
    var m = ModelBuilder()
    m.gesture("g", type, configure)
    return try m.build()
}

let ms: Int64 = 1000
