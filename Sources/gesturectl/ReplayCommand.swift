import ActionDispatch
import ArgumentParser
import GestureConfig
import GestureControl
import GestureCore
import JSONOutput
import LibinputRecord
import LinuxSystem
import Logging
import SystemLoop
import TouchInput
import TouchPipeline

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl replay`: a recording through the daemon's pipeline in virtual time.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run an evemu or libinput record recording through a config and print the gesture events.",
        discussion: """
            The same pipeline as the daemon, in the recording's time: no waiting (unless \
            --realtime). At the end, contacts still down are cancelled and pending timers \
            fire, so a tap waiting for a double tap is still reported. Actions run only \
            with --run-actions. 't' counts seconds from the first recorded event. \
            --delivery adds what the application under the gestures would see of each \
            touch (cancels_touches, delays_touches_began, delays_touches_ended, passthrough).
            """)

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("The config file (default: \(ConfigLoader.defaultPath)); its drop-ins are read too.", valueName: "file"))
    var configOption: String?

    @OptionGroup var dropIns: ConfigDirectoryOptions

    /// `replay CONFIG RECORDING` as `render CONFIG` and `check FILE` write it, or `replay RECORDING`.
    @Argument(
        help: ArgumentHelp(
            "The config file, then the recording (or the recording alone, with --config or the default config). "
                + "A recording: evemu-record output (or events only with --desc), or a libinput record file (YAML).",
            valueName: "config-or-recording"))
    var files: [String] = []

    var config: String { configOption ?? (files.count == 2 ? files[0] : ConfigLoader.defaultPath) }
    var recording: String { files.last ?? "" }

    @OptionGroup var description: DescOption

    @Flag(help: "One JSON object per event (the event stream's schema).")
    var json = false

    @Flag(help: "Also print every state transition.")
    var trace = false

    @Flag(help: "Also print what the application would see of each touch: began, moved, ended, cancelled, with its delay (touch delivery).")
    var delivery = false

    @Flag(
        help: ArgumentHelp(
            "Print continuous gestures' changed events as actions get them: at most once per [daemon] frame_rate frame, "
                + "the newest, with \"coalesced\": the number of changed events each stands for."))
    var coalesce = false

    @Flag(help: "Play at the recorded pace instead of at once.")
    var realtime = false

    @Flag(name: .customLong("run-actions"), help: "Run the configured actions (commands, socket messages) as the daemon would.")
    var runActions = false

    @Option(
        help: ArgumentHelp(
            "Timed control commands applied during the replay: JSON lines {\"t\": seconds, \"cmd\": \"set\"|\"mode\"|\"reset\", ...}.",
            valueName: "file"))
    var script: String?

    func validate() throws {
        switch (files.count, configOption) {
        case (1, _), (2, nil): break
        case (2, _): throw ValidationError("name the config once: --config FILE or CONFIG RECORDING")
        case (0, _): throw ValidationError("missing the recording: replay [--config FILE] RECORDING, or replay CONFIG RECORDING")
        default: throw ValidationError("too many files: replay CONFIG RECORDING")
        }
    }

    func run() throws {
        let configuration = try loadConfiguration(dropIns.tree(mainFile: config))
        let recorded = try description.read(recording)
        let pipeline = GesturePipeline(configuration: configuration)
        pipeline.engine.traceEnabled = trace
        pipeline.engine.touchDeliveryEnabled = delivery
        guard let replay = VirtualReplay(recording: recorded, pipeline: pipeline) else {
            throw CommandFailure("\(recording): libmtdev could not be set up for this protocol-A device")
        }
        if let warning = replay.warning { printError("warning: " + warning) }
        let actions = runActions ? try ActionRunner(configuration: configuration, origin: replay.origin) : nil
        let printer = EventPrinter(
            names: GestureNames(model: configuration.model), model: configuration.model,
            origin: replay.origin, json: json)
        let clock = realtime ? PlaybackClock(origin: replay.origin) : nil
        pipeline.reportsFiltered = true
        pipeline.pacesEvents = coalesce
        let pace = coalesce ? configuration.daemon.frameRate.period : nil
        var sink = ReplaySink(printer: printer, actions: actions, pace: pace)
        var commands = try script.map(readScript)?.lines[...] ?? []
        var refused = 0
        /// The script's lines due at `time`, performed at their own times.
        func perform(until time: Microseconds) {
            while let line = commands.first, replay.origin + line.offset <= time {
                commands.removeFirst()
                do {
                    try pipeline.perform(line.command, by: .script, at: replay.origin + line.offset)
                } catch {
                    refused += 1
                    printError("\(script ?? ""):\(line.number): \(error.code): \(error.message)")
                }
            }
        }
        replay.run(into: &sink) { time in
            actions?.serve()
            if let clock { clock.wait(until: time, serving: actions) }
            perform(until: time)
        }
        // Lines after the recording's end still apply, in order.
        perform(until: .max)
        pipeline.drain(into: &sink)
        actions?.finish()
        if refused > 0 { throw CommandFailure("\(script ?? ""): \(refused) command\(refused == 1 ? "" : "s") refused") }
    }

    private func readScript(_ path: String) throws -> RuntimeScript {
        let bytes = try WholeFile.read(path, maximumSize: 4 << 20)
        return try RuntimeScript(text: String(decoding: bytes, as: UTF8.self), file: path)
    }
}

/// The replay's outputs printed and, with `--run-actions`, the events' actions run.
private struct ReplaySink: PipelineSink {
    let printer: EventPrinter
    let actions: ActionRunner?
    /// `--coalesce`: the period whose paced `changed` are printed instead of every one.
    let pace: Microseconds?

    func receive(_ output: PipelineOutput) {
        switch output {
        case .event(let event):
            if pace == nil || event.state != .changed { printer.print(event) }
            actions?.dispatcher.dispatch(event)
        case .paced(let event, let period, let coalesced):
            if period == pace { printer.print(event, coalesced: coalesced) }
            actions?.dispatcher.dispatch(event, paced: period)
        case .trace(let record): printer.print(record)
        case .runtime(let update): printer.print(update)
        case .filtered(let contact, let device): printer.print(contact, device: device)
        case .health(let notice, let device): printer.print(notice, device: device)
        case .applicationTouch(let change): printer.print(change)
        case .contact: break
        }
    }
}

/// Prints events and trace records as JSON lines or readable lines.
private struct EventPrinter {
    let names: GestureNames
    let model: GestureModel
    let origin: Microseconds
    let json: Bool

    func print(_ event: GestureEvent, coalesced: Int? = nil) {
        var writer = JSONWriter()
        EventJSON.line(event, names: names, origin: origin, coalesced: coalesced, into: &writer)
        emit(writer.bytes)
    }

    /// A runtime change or mode change: the event stream's lines (`--json`), or as `monitor`
    /// prints them (`   12.500  mode=maintenance from=null cause=switched by=script`).
    func print(_ update: RuntimeUpdate) {
        var writer = JSONWriter()
        for value in update.streamLines(seconds: { Double($0 - origin) / 1_000_000 }) {
            EventJSON.objectLine(value, time: update.time, origin: origin, into: &writer)
            emit(writer.bytes)
        }
    }

    func print(_ record: TraceRecord) {
        var writer = JSONWriter()
        EventJSON.traceLine(
            time: record.time, origin: origin, view: names.view(record.view), gesture: names.gesture(record.gesture),
            from: record.from.description, to: record.to.description,
            reason: record.reason.describe(in: model), into: &writer)
        emit(writer.bytes)
    }

    /// A contact the health stage filtered, with its rule.
    func print(_ contact: FilteredContact, device: DeviceID) {
        if json {
            var writer = JSONWriter()
            EventJSON.filteredLine(contact, device: device, origin: origin, into: &writer)
            return emit(writer.bytes)
        }
        // `    0.032  filtered touch 5 ghost  shown=no x=835.2 y=663.2`
        line(
            at: contact.time,
            "filtered touch \(contact.id) \(contact.rule)  shown=\(contact.wasShown ? "yes" : "no")"
                + " x=\(number(contact.x, 1)) y=\(number(contact.y, 1))")
    }

    /// A panel's health change: the event stream's line (`--json`), or as `monitor` prints
    /// it. Masked spots are the log's, not the stream's: not printed.
    func print(_ notice: HealthNotice, device: DeviceID) {
        guard case .state(_, let state, let reason) = notice.kind else { return }
        if json {
            var writer = JSONWriter()
            EventJSON.healthLine(device: device, state: state, reason: reason, time: notice.time, origin: origin, into: &writer)
            return emit(writer.bytes)
        }
        line(at: notice.time, "device \(device.rawValue) health \(state): \(reason)")
    }

    func print(_ change: TouchChange) {
        if json {
            var writer = JSONWriter()
            EventJSON.touchLine(change, names: names, origin: origin, into: &writer)
            return emit(writer.bytes)
        }
        // `    1.234  app touch 5 began  delay=0.35 view=map x=10 y=20.5`, as monitor prints events.
        let view = change.view >= 0 ? names.view(change.view) : "-"
        line(
            at: change.time,
            "app touch \(change.id) \(change.kind)  delay=\(number(Double(change.delay) / 1_000_000, 3)) view=\(view)"
                + " x=\(number(change.x, 1)) y=\(number(change.y, 1))")
    }

    /// A readable line: the time right-aligned in 9 columns, then `text`.
    private func line(at time: Microseconds, _ text: String) {
        var t: [UInt8] = []
        _ = TextNumber.appendFixed(Double(time - origin) / 1_000_000, decimals: 3, to: &t)
        Swift.print(String(repeating: " ", count: max(0, 9 - t.count)) + String(decoding: t, as: UTF8.self) + "  " + text)
        fflush(nil)
    }

    private func number(_ value: Double, _ decimals: Int) -> String {
        var bytes: [UInt8] = []
        _ = TextNumber.appendFixed(value, decimals: decimals, trimmingZeros: true, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func emit(_ line: [UInt8]) {
        if json {
            Swift.print(String(decoding: line.dropLast(), as: UTF8.self))
        } else if let line = EventLine(line: line.dropLast()) {
            Swift.print(MonitorText.render(line))
        }
        fflush(nil)
    }
}

/// `--realtime`: holds each step until its recorded time has come on the monotonic clock.
private final class PlaybackClock {
    let origin: Microseconds
    let start = MonotonicClock.now()

    init(origin: Microseconds) { self.origin = origin }

    func wait(until time: Microseconds, serving actions: ActionRunner?) {
        let due = start + (time - origin)
        while case let now = MonotonicClock.now(), now < due {
            if let actions {
                actions.serve(milliseconds: Int32(min((due - now + 999) / 1000, 1000)))
            } else {
                var request = timespec(tv_sec: Int(due - now) / 1_000_000, tv_nsec: Int(due - now) % 1_000_000 * 1000)
                nanosleep(&request, nil)
            }
        }
    }
}

/// `--run-actions`: the daemon's dispatcher on a small loop of its own.
private final class ActionRunner {
    let loop: EventLoop
    let dispatcher: Dispatcher

    init(configuration: Configuration, origin: Microseconds) throws {
        loop = try EventLoop()
        // Commands' stderr and the dispatcher's warnings, as the daemon logs them.
        StderrLogHandler.bootstrap(level: .info, environment: ProcessEnvironment.current())
        let logger = Logger(label: "gesturectl")
        dispatcher = try Dispatcher(loop: loop, configuration: configuration, origin: origin, logger: logger)
    }

    /// Serves what is ready (children's exits and output, socket sends), waiting up to `milliseconds`.
    func serve(milliseconds: Int32 = 0) {
        do { try loop.runOnce(timeoutMilliseconds: milliseconds) } catch { printError("\(error)") }
    }

    /// Waits for the commands still running (each ends by its timeout at the latest) and
    /// lets queued socket messages go out.
    func finish() {
        while dispatcher.runningChildren > 0 { serve(milliseconds: 100) }
        serve(milliseconds: 100)
    }
}
