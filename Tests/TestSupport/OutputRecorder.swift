import GestureCore
import TouchPipeline

/// A sink that keeps every output of a pipeline's stream, in order, for a test to read.
public struct OutputRecorder: PipelineSink {
    public private(set) var outputs: [PipelineOutput] = []

    public init() {}

    public mutating func receive(_ output: PipelineOutput) { outputs.append(output) }

    public mutating func removeAll() { outputs.removeAll() }

    public var events: [GestureEvent] { outputs.compactMap { if case .event(let e) = $0 { e } else { nil } } }
    /// The `changed` at the display's pace, with the period and how many each stands for.
    public var paced: [(event: GestureEvent, period: Microseconds, coalesced: Int)] {
        outputs.compactMap { if case .paced(let e, let p, let n) = $0 { (e, p, n) } else { nil } }
    }
    public var runtime: [RuntimeUpdate] { outputs.compactMap { if case .runtime(let u) = $0 { u } else { nil } } }
    public var trace: [TraceRecord] { outputs.compactMap { if case .trace(let r) = $0 { r } else { nil } } }
    public var applicationTouches: [TouchChange] {
        outputs.compactMap { if case .applicationTouch(let c) = $0 { c } else { nil } }
    }
    public var contacts: [TouchReport] { outputs.compactMap { if case .contact(let c) = $0 { c } else { nil } } }
    public var filtered: [FilteredContact] { outputs.compactMap { if case .filtered(let f, _) = $0 { f } else { nil } } }
    public var health: [HealthNotice] { outputs.compactMap { if case .health(let n, _) = $0 { n } else { nil } } }
}

extension GesturePipeline {
    /// Drains the stream into a new recorder.
    public func drained() -> OutputRecorder {
        var recorder = OutputRecorder()
        drain(into: &recorder)
        return recorder
    }
}
