import GestureCore

/// One thing the pipeline produced, in the one ordered stream every consumer reads
/// (`GesturePipeline.drain(into:)`): the daemon, `gesturectl replay` and `render`, the
/// benchmarks, the tests and the fuzzer. A new kind of output is a new case here and the
/// place in `GesturePipeline.collect` that produces it; a sink that has no use for it
/// ignores it.
///
/// The order (docs/SEMANTICS.md, "The output stream"): steps (a frame, a deadline, a
/// runtime operation) in the order they happened; within a frame's step what the panel's
/// stages did, then the contacts the engine got, then the engine's transitions and
/// events, each event followed by the runtime change its action made (and what that
/// change cancelled), then what the application sees.
public enum PipelineOutput {
    /// A contact the health stage kept from the engine, or took back, with its rule
    /// (while `GesturePipeline.reportsFiltered`).
    case filtered(FilteredContact, device: DeviceID)
    /// A panel's health notice: its state changed, a spot was masked or released.
    case health(HealthNotice, device: DeviceID)
    /// A contact as the engine got it in a frame (while `GesturePipeline.reportsTouches`).
    case contact(TouchReport)
    /// A gesture's state transition (while the engine's `traceEnabled`).
    case trace(TraceRecord)
    /// A gesture event, named by the model in force when it was emitted.
    case event(GestureEvent)
    /// A continuous gesture's `changed` at the display's pace (`ChangePacer`): what the
    /// actions of its lane's `period` and coalescing subscribers get, at most once per
    /// period, standing for `coalesced` `changed` events (itself the newest). It follows
    /// the `.event` it repeats, or comes at its lane's deadline, always before the
    /// gesture's `ended` or `cancelled`.
    case paced(GestureEvent, period: Microseconds, coalesced: Int)
    /// What a runtime operation changed: a `set`, `mode` or `reset`, a mode switched by an
    /// action (`mode = "..."`), a mode's `for` that ran out, an owner gone, a reload.
    case runtime(RuntimeUpdate)
    /// What the application under the gestures sees of a touch (while touch delivery is on);
    /// a grabbed panel's clone has been sent it when the sink gets it.
    case applicationTouch(TouchChange)
}

/// What takes the pipeline's outputs, one at a time and in order.
public protocol PipelineSink {
    mutating func receive(_ output: PipelineOutput)
}
