import GestureCore

/// The road out: what each step produced goes into `outputs` in the stream's order, and the
/// caller drains it into its sink. The order is made here and nowhere else
/// (docs/SEMANTICS.md, "The output stream").
extension GesturePipeline {
    /// Hands every output since the last drain to `sink`, in order, then forgets them. The
    /// grabbed panels' clones are sent the application's touches first, so what the
    /// application sees goes out before the sink starts any action.
    public func drain<Sink: PipelineSink>(into sink: inout Sink) {
        forwardTouches()
        // Indexed, so that what the sink makes the pipeline do meanwhile is drained too.
        var i = 0
        while i < outputs.count {
            sink.receive(outputs[i])
            i += 1
        }
        outputs.removeAll(keepingCapacity: true)
        forwarded = 0
    }

    /// The end of a step (a frame, a deadline, a runtime operation): what it produced goes
    /// into the stream. One branch per source when it produced nothing.
    @inline(__always)
    func endStep() {
        guard
            !events.isEmpty || !touches.isEmpty || engine.traceEnabled || engine.touchDeliveryEnabled
                || path.stages.health.hasUndrained
        else { return }
        collect()
    }

    /// Moves the step's outputs into the stream, in this order:
    /// 1. per device, the contacts its health stage filtered, then its notices: the stage
    ///    ran before the engine saw the frame;
    /// 2. the contacts the engine got (`reportsTouches`);
    /// 3. the engine's transitions (trace), then its events, each with what the pacer made
    ///    of it (a paced `changed` after it, the waiting ones before an `ended`); after each
    ///    event, the runtime change its action made (`mode = "..."`), whose own transitions and events (the
    ///    gestures it disabled) follow the step's events;
    /// 4. what the application sees of the touches.
    func collect() {
        // A mode switch performed below leaves what it caused to the loop below.
        guard !collecting else { return }
        collecting = true
        defer { collecting = false }
        let stages = path.stages.health.devices
        for d in 0..<stages.count where stages[d].hasUndrained {
            let device = stages[d].device
            stages[d].drainFiltered(into: &filtered)
            for k in 0..<filtered.count { outputs.append(.filtered(filtered[k], device: device)) }
            filtered.removeAll(keepingCapacity: true)
            stages[d].drainNotices(into: &notices)
            for k in 0..<notices.count { outputs.append(.health(notices[k], device: device)) }
            notices.removeAll(keepingCapacity: true)
        }
        for k in 0..<touches.count { outputs.append(.contact(touches[k])) }
        touches.removeAll(keepingCapacity: true)
        // Rounds: the events a mode switch caused (and their transitions) come in the next.
        var next = 0
        repeat {
            if engine.traceEnabled {
                engine.drainTrace(into: &traceRecords)
                for k in 0..<traceRecords.count { outputs.append(.trace(traceRecords[k])) }
                traceRecords.removeAll(keepingCapacity: true)
            }
            let end = events.count
            while next < end {
                if pacer.isEmpty { outputs.append(.event(events[next])) } else { pacer.take(events[next], into: &outputs) }
                performModeAction(of: events[next])
                next += 1
            }
        } while next < events.count
        events.removeAll(keepingCapacity: true)
        if engine.touchDeliveryEnabled {
            engine.drainTouchChanges(into: &touchChanges)
            for k in 0..<touchChanges.count { outputs.append(.applicationTouch(touchChanges[k])) }
            touchChanges.removeAll(keepingCapacity: true)
        }
    }

    /// The output stage: sends the application's touches not sent yet to the devices'
    /// virtual clones, one frame per clone. Touches of devices without one (not grabbed)
    /// are not sent: their application reads the panel itself.
    func forwardTouches() {
        defer { forwarded = outputs.count }
        guard engine.touchDeliveryEnabled, encoders.contains(where: { $0 != nil }) else { return }
        for i in forwarded..<outputs.count {
            guard case .applicationTouch(let change) = outputs[i] else { continue }
            // A contact the health stage split off a jump is shown from its panel contact.
            let panel = path.stages.health.panelContact(of: change.id)
            for d in 0..<devices.count where devices[d].id == change.device {
                encoders[d]?.apply(change, panel: panel)
            }
        }
        for d in 0..<encoders.count { encoders[d]?.flush() }
    }
}
