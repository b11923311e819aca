import ActionDispatch
import GestureConfig
import GestureControl
import GestureCore
import Logging
import TouchPipeline

/// The daemon's end of the pipeline's stream: every output, in the pipeline's order, to the
/// subscribers (a line each, trace and contact lines only to those that asked), the
/// dispatcher (events, health changes), the log and the status counts.
extension Daemon {
    /// Hands on what the pipeline produced since the last flush, named after the model it
    /// was produced under (the previous one, for what a reload cancelled).
    func flush(model: GestureModel, names: GestureNames) {
        var sink = Sink(daemon: self, model: model, names: names)
        pipeline.drain(into: &sink)
    }

    private struct Sink: PipelineSink {
        unowned let daemon: Daemon
        let model: GestureModel
        let names: GestureNames

        func receive(_ output: PipelineOutput) {
            switch output {
            case .event(let event): daemon.take(event, names: names)
            case .paced(let event, let period, let coalesced): daemon.take(paced: event, period: period, coalesced: coalesced, names: names)
            case .trace(let record): daemon.publish(record, model: model, names: names)
            case .contact(let touch): daemon.publish(touch, names: names)
            case .filtered(let contact, let device): daemon.publish(contact, device: device)
            case .health(let notice, let device): daemon.take(notice, device: device)
            case .runtime(let update): daemon.take(update)
            // Already on the grabbed panels' clones (the pipeline's output stage).
            case .applicationTouch: break
            }
        }
    }

    /// An event: subscribers first (a line is written in microseconds, while starting a
    /// command, fork and exec, takes a millisecond or more and would delay the line by as
    /// much), then its actions, then the status count.
    private func take(_ event: GestureEvent, names: GestureNames) {
        server.publish(event, names: names, origin: origin, paced: pipeline.configuration.daemon.frameRate.period != nil)
        dispatcher.dispatch(event)
        eventCounts.count(event)
    }

    /// A `changed` at the display's pace (docs/SEMANTICS.md, "At the display's pace"): to the
    /// coalescing subscribers when it is at `[daemon] frame_rate`, and to the actions of its pace.
    private func take(paced event: GestureEvent, period: Microseconds, coalesced: Int, names: GestureNames) {
        if period == pipeline.configuration.daemon.frameRate.period {
            server.publish(paced: event, coalesced: coalesced, names: names, origin: origin)
        }
        dispatcher.dispatch(event, paced: period)
    }

    private func publish(_ record: TraceRecord, model: GestureModel, names: GestureNames) {
        EventJSON.traceLine(
            time: record.time, origin: origin, view: names.view(record.view),
            gesture: names.gesture(record.gesture), from: record.from.description,
            to: record.to.description, reason: record.reason.describe(in: model), into: &traceWriter)
        server.publish(line: traceWriter.bytes, trace: true)
    }

    /// A contact as the engine got it, to `monitor --touches`.
    private func publish(_ touch: TouchReport, names: GestureNames) {
        EventJSON.touchLine(touch, origin: origin, view: touch.hitView >= 0 ? names.view(touch.hitView) : nil, into: &traceWriter)
        server.publish(line: traceWriter.bytes, trace: false, touches: true)
    }

    /// A contact a panel's stage filtered, with its rule, to `monitor --touches` (the line
    /// `replay` prints).
    private func publish(_ contact: FilteredContact, device: DeviceID) {
        EventJSON.filteredLine(contact, device: device, origin: origin, into: &traceWriter)
        server.publish(line: traceWriter.bytes, trace: false, touches: true)
    }

    /// A panel's health notice: a state change logged, sent to subscribers and handed to the
    /// panel's `[device.on.STATE]` actions; a masked or released spot logged.
    private func take(_ notice: HealthNotice, device id: DeviceID) {
        let device = pipeline.devices.first { $0.id == id }
        let panel = journalPanel(of: id) ?? JournalPanel(name: "?", path: "?", properties: [:])
        let (name, path) = (panel.name, panel.path)
        switch notice.kind {
        case .state(let from, let to, let reason):
            let text = "device '\(name)' (\(path)): health \(from) -> \(to): \(reason)"
            let fields = Logger.Metadata.journal(health: to, reason: reason, panel: panel)
            if to == .ok { logger.notice("\(text)", metadata: fields) } else { logger.warning("\(text)", metadata: fields) }
            EventJSON.healthLine(device: id, state: to, reason: reason, time: notice.time, origin: origin, into: &traceWriter)
            server.publish(line: traceWriter.bytes, trace: false)
            if let device, let rule = device.resolved.rule {
                dispatcher.dispatch(
                    HealthChange(device: device.id, name: name, path: path, state: to, reason: reason, time: notice.time),
                    rule: rule)
            }
        case .spotMasked(let x, let y):
            logger.notice("device '\(name)' (\(path)): a recurring spot at (\(Int(x)), \(Int(y))) px is masked")
        case .spotReleased(let x, let y):
            logger.notice("device '\(name)' (\(path)): the spot at (\(Int(x)), \(Int(y))) px went quiet, released")
        }
    }

    /// What a runtime operation did: a line each to subscribers, a log line for a mode that
    /// began or ended and for what a reload dropped, and the mode to the actions' environment
    /// (the actions of events after it in the stream run in it).
    private func take(_ update: RuntimeUpdate) {
        for line in update.streamLines(seconds: { uptimeSeconds($0, origin: origin) }) {
            EventJSON.objectLine(line, time: update.time, origin: origin, into: &traceWriter)
            server.publish(line: traceWriter.bytes, trace: false)
        }
        if let mode = update.mode {
            logModeChange(mode)
            dispatcher.mode = mode.to ?? ModeSpec.none
        }
        for change in update.dropped {
            logger.notice("reload: \(change.target) no longer exists; its change by \(change.owner) is dropped")
        }
    }

    private func logModeChange(_ change: ModeChange) {
        let from = change.from ?? ModeSpec.none
        let to = change.to ?? ModeSpec.none
        let why: String =
            switch change.cause {
            case .switched(let owner): "switched by \(owner)"
            case .expired: "its time ran out"
            case .ownerGone(let owner): "\(owner) closed"
            case .removed: "the reloaded config no longer declares it"
            }
        let until = change.until.map { ", until \(uptimeSeconds($0, origin: origin)) s of uptime" } ?? ""
        logger.notice("mode: \(from) -> \(to) (\(why)\(until))")
    }
}
