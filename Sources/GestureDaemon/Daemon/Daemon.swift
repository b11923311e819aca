import ActionDispatch
import CLinuxShims
import GestureConfig
import GestureControl
import GestureCore
import JSONOutput
import LinuxSystem
import Logging
import SystemLoop
import TouchInput
import TouchPipeline

#if canImport(Glibc)
import Glibc
#endif

/// gestured itself: one loop over the input devices, udev, the engine's timer, signals and
/// the control socket. Every wake feeds the pipeline, then hands its output stream to the
/// dispatcher and to subscribers (Daemon+Output.swift), then re-arms the timer for the
/// engine's next deadline.
/// With no finger down and no watchdog, nothing is armed and the process sleeps.
public final class Daemon {
    public let options: DaemonOptions
    let logger: Logger
    let loop: EventLoop
    let pipeline: GesturePipeline
    let dispatcher: Dispatcher
    /// Monotonic time of start: live events' `t` and `uptime_s` count from it.
    let origin: Microseconds
    /// Wall-clock time of start (`status.start_time_s`).
    let startTime = WallClock.seconds()
    private let notifier: SystemdNotifier?
    private(set) var server: ControlServer!
    private(set) var input: InputSource!
    private(set) var replay: ReplayInput?
    private var metricsFile: MetricsFile!
    /// The exposition's buffers, kept from one render to the next (`metrics_file`, `metrics`).
    let metricsRenderer = MetricsRenderer()
    /// Names of the configuration in force (events carry indices only).
    private(set) var names: GestureNames
    private(set) var reloads = ReloadHistory()
    /// Per gesture, its events so far (`status`); counted as the stream hands them on.
    var eventCounts: GestureEventCounts
    /// Writes the stream's trace, contact, health and runtime lines.
    var traceWriter = JSONWriter()
    private var stopping = false
    /// Why the daemon stops (the signal's name), for the stream's last line.
    private var stopReason = "stopped"
    /// How long stopping waits for the last events and actions to go out.
    static let stopGrace: Microseconds = 1_000_000
    /// `GestureEngine.engineBugs` when last logged.
    private var loggedEngineBugs = 0
    /// The touchscreen count in the last STATUS= line; a change sends a new one.
    private var announcedDevices = -1

    /// Binds the control socket and opens the input: live touchscreens, or the recording of
    /// `options.replay`. Throws what start-up cannot get past (socket taken, unreadable
    /// recording), worded for the log. `clock` is the loop's: a test moves a manual one to
    /// reach the engine's and the runtime's deadlines (a mode's `for`) without waiting.
    /// `adoptsOrphans`: become the child subreaper (a test process must not: the orphans of
    /// its other tests would stay its zombies).
    public init(
        options: DaemonOptions, configuration: Configuration, environment: [String: String], logger: Logger,
        clock: LoopClock = .monotonic, adoptsOrphans: Bool = true
    ) throws {
        self.options = options
        self.logger = logger
        origin = clock.now()
        loop = try EventLoop(clock: clock)
        pipeline = GesturePipeline(configuration: configuration)
        // The idle rule's time without a touch counts from the start.
        pipeline.advance(to: origin)
        dispatcher = try Dispatcher(
            loop: loop, configuration: configuration, origin: origin, logger: logger,
            keyboard: { codes throws(SystemError) in try VirtualKeyboard(name: KeyAction.keyboardName, codes: codes) })
        // What actions leave running (`sleep 30 &`, `setsid`) comes back to gestured, to be
        // counted against max_children, killed at its timeout and at shutdown, and reaped.
        if adoptsOrphans, cls_set_child_subreaper() == 0 {
            dispatcher.adoptsOrphans = true
        } else if adoptsOrphans {
            logger.warning(
                "prctl(PR_SET_CHILD_SUBREAPER): \(String(cString: strerror(errno))); what commands leave running escapes max_children and timeouts"
            )
        }
        names = GestureNames(model: configuration.model)
        eventCounts = GestureEventCounts(gestures: configuration.model.gestures.count)
        notifier = try SystemdNotifier(environment: environment)
        let settings = configuration.daemon
        let path = ControlSocketPath.forDaemon(option: options.socketPath, configured: settings.socketPath, environment: environment)
        server = try ControlServer(
            loop: loop, path: path, mode: settings.socketMode, group: settings.socketGroup, controlGroup: settings.controlGroup,
            subscriberBuffer: settings.subscriberBuffer, handler: self, logger: logger)
        metricsFile = try MetricsFile(loop: loop, logger: logger) { [unowned self] in self.metricsRenderer.render(self.statusValue()) }
        try loop.watchSignals([SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2]) { [unowned self] in self.handle(signal: $0) }
        loop.onDeadline = { [unowned self] in self.deadlinePassed() }
        dispatcher.panel = { [unowned self] in self.journalPanel(of: $0) }
        if let source = options.replay {
            let recording = try EvemuRecording.read(path: source.path, descPath: source.descPath)
            let replay = try ReplayInput(
                path: source.path, recording: recording, speed: source.speed, loop: loop,
                pipeline: pipeline, logger: logger)
            self.replay = replay
            input = replay
            logger.notice("replay: \(source.path) waits for {\"cmd\": \"replay-start\"} on \(path)")
        } else if let stream = options.stream {
            input = try StreamInput(path: stream.path, descPath: stream.descPath, loop: loop, pipeline: pipeline, logger: logger)
        } else {
            input = LiveInput(loop: loop, pipeline: pipeline, logger: logger)
        }
        logger.info(
            "gestured \(GesturedVersion.current): config \(options.configPath), \(configuration.model.gestures.count) gestures; control socket \(path)"
        )
    }

    /// Serves until SIGTERM or SIGINT, then shuts down cleanly (socket removed, children
    /// killed). Tells systemd READY=1 first and pings its watchdog when asked to.
    public func run() throws(SystemError) {
        metricsFile.configure(path: pipeline.configuration.daemon.metricsFile, interval: pipeline.configuration.daemon.metricsInterval)
        do {
            try notifier?.notify("READY=1")
            announceStatus()
            try notifier?.startWatchdog(on: loop) { [logger] in logger.warning("systemd watchdog: \($0)") }
        } catch {
            logger.warning("systemd notify: \(error)")
        }
        // Arms the first deadline (the idle rule's) before the first wait.
        afterWake()
        while !stopping { try turn(timeoutMilliseconds: -1) }
        shutdown()
    }

    /// One turn of the loop: wait up to `timeoutMilliseconds` (-1: until something is
    /// ready), serve what is, then hand on what it emitted.
    func turn(timeoutMilliseconds: Int32) throws(SystemError) {
        try loop.runOnce(timeoutMilliseconds: timeoutMilliseconds)
        afterWake()
    }

    /// Ends `run()` after the current wake (what SIGTERM does).
    public func stop() { stopping = true }

    private func handle(signal: Int32) {
        switch signal {
        case SIGCHLD:
            dispatcher.reapChildren()
        case SIGHUP:
            logger.notice("SIGHUP: reloading \(options.configPath)")
            _ = reloadConfiguration()
        case SIGUSR1, SIGUSR2:
            // Their default action ends the process: a stray log-rotation signal must not
            // take a kiosk's touch with it.
            let name = signal == SIGUSR1 ? "SIGUSR1" : "SIGUSR2"
            logger.notice("\(name) ignored: SIGHUP reloads the configuration, SIGTERM stops gestured")
        default:
            stopReason = signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : String(cString: strsignal(signal))
            logger.notice("\(String(cString: strsignal(signal))): stopping")
            stopping = true
        }
    }

    /// The engine's timer: input that arrived before it is fed first, then time advances, to
    /// the time read before the input was: every event due by then has been fed, so no
    /// later frame is older than the engine's time. (Read after, events that came due while
    /// the input was fed were stamped with a time already passed, and their velocities
    /// differed: seen with gestured under qemu-aarch64, whose feeding takes milliseconds.)
    private func deadlinePassed() {
        let now = loop.now()
        input.drain()
        pipeline.advance(to: now)
    }

    private func afterWake() {
        flush(model: pipeline.configuration.model, names: names)
        input.flushed()
        if pipeline.engine.engineBugs != loggedEngineBugs {
            loggedEngineBugs = pipeline.engine.engineBugs
            logger.error(
                "engine bug: an illegal gesture phase change was refused (\(loggedEngineBugs) so far); please report it with the output of `gesturectl monitor --trace`"
            )
        }
        if pipeline.devices.count != announcedDevices { announceStatus() }
        // Set after the flush, so records of this wake are drained before tracing stops.
        pipeline.engine.traceEnabled = server.wantsTrace
        pipeline.reportsTouches = server.wantsTouches
        pipeline.pacesEvents = server.wantsCoalesced
        // Filtered contacts are recorded only while someone watches the touches.
        pipeline.reportsFiltered = server.wantsTouches
        // An earlier timer stays: its wake advances to a time with nothing due and lands here.
        do { try loop.setDeadline(noLaterThan: pipeline.nextDeadline) } catch { logger.error("engine timer: \(error)") }
    }

    /// Loads the config file again and swaps it in; a file that does not validate leaves
    /// the running config in place, every error logged and kept for `status`.
    func reloadConfiguration() -> ControlReply {
        let now = loop.now()
        let configuration: Configuration
        do {
            configuration = try ConfigLoader.load(tree: options.configTree, enforcingSafety: ConfigFileSafety.isRoot)
        } catch {
            let text = BoundedText.bounded(error.description)
            for line in text.split(separator: "\n") { logger.error("reload: \(line)") }
            logger.error(
                "reload: \(options.configPath) refused; the running config stays",
                metadata: .journal(.reloadRefused, configFile: options.configPath, error: text))
            reloads.record(ReloadRecord(at: now, error: text))
            announceStatus()
            metricsFile.write()
            return .failure(ControlError(code: "reload-failed", message: text + "\nthe running config stays"))
        }
        try? notifier?.notify("RELOADING=1")
        for warning in configuration.warnings { logger.warning("reload: \(warning)") }
        let previous = pipeline.configuration
        let diff = ModelDiff(from: previous.model, to: configuration.model)
        input.drain()
        // Runtime changes whose gesture or view the new config lacks (logged when published).
        let dropped = pipeline.reload(configuration, at: now).dropped
        // Cancellations caused by the swap belong to the old model and its actions.
        flush(model: previous.model, names: names)
        do {
            try dispatcher.reconfigure(configuration)
        } catch {
            logger.error("reload: actions not updated: \(error)")
        }
        names = GestureNames(model: configuration.model)
        eventCounts = eventCounts.continued(diff.continuing)
        // After the flush: a touchscreen closed now cancels under the new model's names.
        input.configurationChanged()
        server.subscriberBuffer = configuration.daemon.subscriberBuffer
        if configuration.daemon.socketPath != previous.daemon.socketPath || configuration.daemon.socketMode != previous.daemon.socketMode
            || configuration.daemon.socketGroup != previous.daemon.socketGroup
            || configuration.daemon.controlGroup != previous.daemon.controlGroup
        {
            logger.notice("reload: socket settings change at the next start")
        }
        if configuration.daemon.logLevel != previous.daemon.logLevel {
            logger.notice("reload: log_level changes at the next start")
        }
        reloads.record(ReloadRecord(at: now, error: nil))
        try? notifier?.notify("READY=1")
        announceStatus()
        metricsFile.configure(path: configuration.daemon.metricsFile, interval: configuration.daemon.metricsInterval)
        var message = "reloaded \(options.configPath): \(diff.summary)"
        if !dropped.isEmpty {
            message += "; runtime changes dropped (no longer in the config): " + dropped.map(\.target.description).joined(separator: ", ")
        }
        logger.notice("\(message)", metadata: .journal(.reloadSucceeded, configFile: options.configPath))
        var reply: [(String, JSONValue)] = [("message", .string(message))]
        if !dropped.isEmpty { reply.append(("dropped", .array(dropped.map { .object([($0.target.kind, .string($0.target.name))]) }))) }
        return .success(.object(reply))
    }

    /// Tells systemd what `systemctl status` shows: the config, the touchscreens in use,
    /// and the last reload's first error while the previous config is running.
    private func announceStatus() {
        announcedDevices = pipeline.devices.count
        guard let notifier else { return }
        let touchscreens = announcedDevices == 1 ? "1 touchscreen" : "\(announcedDevices) touchscreens"
        var line = "STATUS=\(pipeline.configuration.model.gestures.count) gestures from \(options.configPath); \(touchscreens)"
        if let error = reloads.last?.error, let first = error.split(separator: "\n").first {
            line += "; last reload refused (\(first)), running the previous config"
        }
        notifier.send(line) { logger.warning("systemd notify: \($0)") }
    }

    /// Ends what is open, lets the last events and actions out within `stopGrace`, then
    /// closes the socket and kills what still runs.
    private func shutdown() {
        try? notifier?.notify("STOPPING=1")
        // Contacts still down end as cancelled, so do their gestures: subscribers get the
        // events and `on.cancelled` actions run, as at the end of a replay.
        let now = loop.now()
        input.drain()
        pipeline.finish(at: now, panelTimers: false)
        flush(model: pipeline.configuration.model, names: names)
        // No contact is left down on a virtual touchscreen (the clones go with the process),
        // no key on gestured's keyboard.
        pipeline.releaseForwarded()
        dispatcher.releaseKeys()
        server.publishStopping(reason: stopReason, time: now, origin: origin)
        let end = now + Self.stopGrace
        while server.hasPendingOutput || dispatcher.hasPendingWork {
            let left = end - loop.now()
            guard left > 0 else { break }
            do { try loop.runOnce(timeoutMilliseconds: Int32(max(1, left / 1000))) } catch { break }
        }
        server.close()
        metricsFile.remove()
        if dispatcher.runningChildren > 0 {
            logger.notice("killing \(dispatcher.runningChildren) running command(s)")
            dispatcher.killChildren()
        }
        logger.notice("stopped")
    }
}
