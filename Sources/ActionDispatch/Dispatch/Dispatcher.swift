import GestureConfig  // KeyNames: libevdev's key names (the rest of ActionDispatch needs only the model)
import GestureControl
import GestureCore
import JSONOutput
import LinuxSystem
import Logging
import SystemLoop

/// Turns gesture events into the configured actions without ever blocking the loop:
/// commands through `CommandRunner`, messages through one `SocketTarget` per socket, keys
/// through the `KeyPresser` and gestured's keyboard.
public final class Dispatcher {
    /// Makes gestured's keyboard with these key codes (the daemon's uinput device).
    public typealias KeyboardFactory = ([UInt16]) throws(SystemError) -> any KeyboardOutput

    private final class PreparedAction {
        enum Kind {
            case command(String, timeout: Microseconds)
            case socket(SocketTarget, CompiledTemplate?)
            case healthSocket(SocketTarget, HealthTemplate?)
            case keys(KeyAction)
        }
        let kind: Kind
        let cooldown: Microseconds
        /// An `on.changed` action's pace: it runs on the pipeline's `.paced` events of this
        /// period, not on every `changed` (nil: at every frame, and every other state's).
        let period: Microseconds?
        var lastFired: Microseconds?
        /// A step action's count, from the gesture's `began`.
        var steps: KeySteps?
        /// A health action's last run per panel: each panel has its own cooldown.
        var lastFiredOn: [DeviceID: Microseconds] = [:]

        init(kind: Kind, cooldown: Microseconds, period: Microseconds? = nil) {
            self.kind = kind
            self.cooldown = cooldown
            self.period = period
            if case .keys(let keys) = kind, case .step(_, let size, _) = keys.mode { steps = KeySteps(size: size) }
        }
    }

    private let loop: EventLoop
    private let logger: Logger
    private let origin: Microseconds
    private let runner: CommandRunner
    private var settings: DaemonSettings
    private var names: GestureNames
    private var environment: ActionEnvironment
    /// `actions[gesture][state]`.
    private var actions: [[GestureState: [PreparedAction]]] = []
    /// `healthActions[rule][state]`: a `[[device]]` rule's actions on its panels' health.
    private var healthActions: [[HealthState: [PreparedAction]]] = []
    private var targets: [SocketTarget.Key: SocketTarget] = [:]
    private var socketCounters = DispatcherCounters()
    private var message = JSONWriter()
    /// The mode in force, for the commands' `GESTURE_MODE` (`none` without one).
    public var mode = "none"
    /// The panel a device id stands for, for the recognitions' journal entries.
    public var panel: (DeviceID) -> JournalPanel? = { _ in nil }
    /// The keys down and their frames; its output is `keyboard`.
    public let keys = KeyPresser()
    private let makeKeyboard: KeyboardFactory?
    /// gestured's keyboard, when the config has `keys` actions, with its codes.
    public private(set) var keyboard: (any KeyboardOutput)?
    public private(set) var keyboardCodes: [UInt16] = []
    /// Why there is no keyboard although the config has `keys` actions (`status`).
    public private(set) var keyboardError: SystemError?
    private var keyTimer: DeadlineTimer!

    /// `origin` is the time that `t` counts from (the daemon's start). `keyboard` makes
    /// gestured's keyboard for `keys` actions; without it (a replay) keys are not sent.
    public init(
        loop: EventLoop, configuration: Configuration, origin: Microseconds, logger: Logger, keyboard: KeyboardFactory? = nil
    ) throws {
        self.loop = loop
        self.logger = logger
        self.origin = origin
        makeKeyboard = keyboard
        settings = configuration.daemon
        names = GestureNames(model: configuration.model)
        environment = ActionEnvironment(settings: configuration.daemon)
        runner = try CommandRunner(loop: loop, maxChildren: settings.maxChildren, killGrace: settings.killGrace, logger: logger)
        UnixSocket.ignoreSIGPIPE()
        keyTimer = try loop.makeTimer { [unowned self] in self.advanceKeys() }
        try reconfigure(configuration)
    }

    /// Takes a reloaded configuration. Running children and queued socket messages stay;
    /// cooldowns restart. Throws (changing nothing) on a template with an unknown field.
    public func reconfigure(_ configuration: Configuration) throws {
        var targets: [SocketTarget.Key: SocketTarget] = [:]
        // Mode switches are the pipeline's: its output stream performs them (`GesturePipeline.collect`).
        let prepared = try configuration.actions.map { gesture in
            var byState: [GestureState: [PreparedAction]] = [:]
            for (state, specs) in gesture.byState {
                byState[state] = try specs.compactMap { spec in
                    // The pipeline paces `changed` at the same periods (`Configuration.changedPeriods`).
                    try prepare(
                        spec, health: false, configuration, targets: &targets,
                        period: state == .changed ? configuration.changedPeriod(of: spec) : nil)
                }
            }
            return byState
        }
        let preparedHealth = try configuration.devices.map { rule in
            try rule.healthActions.byState.mapValues { specs in
                try specs.compactMap { spec in try prepare(spec, health: true, configuration, targets: &targets) }
            }
        }
        actions = prepared
        healthActions = preparedHealth
        self.targets = targets
        // No key outlives the config that pressed it; the keyboard stays if its keys do.
        keys.releaseAll()
        replaceKeyboard(codes: Set(configuration.actions.flatMap { $0.byState.values.joined() }.flatMap(\.keyCodes)).sorted())
        settings = configuration.daemon
        names = GestureNames(model: configuration.model)
        environment = ActionEnvironment(settings: configuration.daemon)
        runner.maxChildren = settings.maxChildren
        runner.killGrace = settings.killGrace
        runner.orphanTimeout = settings.commandTimeout
    }

    /// One action ready to run; a socket's target is shared by every action sending to it
    /// (kept across reloads, with what it has queued).
    private func prepare(
        _ spec: ActionSpec, health: Bool, _ configuration: Configuration, targets: inout [SocketTarget.Key: SocketTarget],
        period: Microseconds? = nil
    ) throws -> PreparedAction? {
        switch spec.kind {
        case .mode:
            return nil
        case .keys(let keys):
            return PreparedAction(kind: .keys(keys), cooldown: spec.cooldown)
        case .command(let command):
            return PreparedAction(
                kind: .command(command, timeout: spec.timeout ?? configuration.daemon.commandTimeout), cooldown: spec.cooldown,
                period: period)
        case .socket(let path, let template, let datagram):
            let key = SocketTarget.Key(path: path, datagram: datagram)
            let target =
                try targets[key] ?? self.targets[key]
                ?? SocketTarget(
                    key: key, capacity: configuration.daemon.socketQueue, loop: loop, logger: logger,
                    count: { [unowned self] sent, dropped, failed in
                        self.socketCounters.socketMessagesSent += sent
                        self.socketCounters.socketMessagesDropped += dropped
                        self.socketCounters.socketFailures += failed
                    })
            target.capacity = configuration.daemon.socketQueue
            targets[key] = target
            let kind: PreparedAction.Kind =
                health
                ? .healthSocket(target, try template.map(HealthTemplate.init)) : .socket(target, try template.map(CompiledTemplate.init))
            return PreparedAction(kind: kind, cooldown: spec.cooldown, period: period)
        }
    }

    /// Runs the actions of `rule` (the `[[device]]` rule the panel matched) for the state
    /// its panel changed to. Within an action's cooldown since it last ran for this panel,
    /// it is skipped, counted and logged.
    public func dispatch(_ change: HealthChange, rule: Int) {
        guard healthActions.indices.contains(rule), let list = healthActions[rule][change.state] else { return }
        let owner = "device '\(change.name)' on.\(change.state)"
        for action in list {
            if let last = action.lastFiredOn[change.device], change.time - last < action.cooldown {
                runner.counters.cooldownSkips += 1
                let left = Double((last + action.cooldown - change.time) / 1000) / 1000
                logger.notice("[\(owner)] skipped: its cooldown has \(left) s to run")
                continue
            }
            action.lastFiredOn[change.device] = change.time
            switch action.kind {
            case .command(let command, let timeout):
                runner.run(
                    shell: settings.shell, command: command, environment: environment.variables(for: change, origin: origin),
                    gesture: owner, timeout: timeout)
            case .healthSocket(let target, let template):
                if let template {
                    template.render(change, origin: origin, into: &message)
                } else {
                    EventJSON.healthLine(
                        device: change.device, state: change.state, reason: change.reason, time: change.time, origin: origin,
                        into: &message)
                }
                target.send(message.bytes)
            case .socket, .keys: break  // gestures' only
            }
        }
    }

    /// Runs the actions of the event's gesture for its state, but the paced ones of a
    /// `changed` (those run on `dispatch(_:paced:)`).
    public func dispatch(_ event: GestureEvent) {
        if settings.logRecognitions && (event.state == .recognized || event.state == .began) { logRecognition(event) }
        if !keyboardCodes.isEmpty, actions.indices.contains(event.gesture) { keyTransitions(event) }
        run(event, period: nil)
    }

    /// Runs the `changed` actions paced at `period` (the pipeline's `.paced` output).
    public func dispatch(_ event: GestureEvent, paced period: Microseconds) {
        run(event, period: period)
    }

    /// Runs every action of the event's gesture for its state, the paced ones too: a
    /// `trigger`'s one event is not a stream to pace, and each of its actions runs once.
    public func dispatch(triggered event: GestureEvent) {
        dispatch(event)
        guard event.state == .changed, actions.indices.contains(event.gesture), let list = actions[event.gesture][.changed] else {
            return
        }
        var periods: [Microseconds] = []
        for action in list { if let period = action.period, !periods.contains(period) { periods.append(period) } }
        for period in periods { run(event, period: period) }
    }

    /// The actions of the event's gesture for its state whose pace is `period` (nil: key
    /// actions and every state's but `changed`'s paced ones).
    private func run(_ event: GestureEvent, period: Microseconds?) {
        guard actions.indices.contains(event.gesture), let list = actions[event.gesture][event.state] else { return }
        // An index loop: an unspecialized array iterator allocates in a debug build.
        for i in 0..<list.count {
            let action = list[i]
            if action.period != period { continue }
            if let last = action.lastFired, action.cooldown > 0, event.time - last < action.cooldown {
                runner.counters.cooldownSkips += 1
                continue
            }
            action.lastFired = event.time
            switch action.kind {
            case .command(let command, let timeout):
                runner.run(
                    shell: settings.shell, command: command,
                    environment: environment.variables(for: event, names: names, origin: origin, mode: mode),
                    gesture: names.gesture(event.gesture), timeout: timeout)
            case .socket(let target, let template):
                if let template {
                    template.render(event, names: names, origin: origin, into: &message)
                } else {
                    EventJSON.line(event, names: names, origin: origin, into: &message)
                }
                target.send(message.bytes)
            case .keys(let keyAction):
                run(keyAction, action, event)
            case .healthSocket: break  // health changes' only
            }
        }
    }

    /// `[daemon] log_recognitions`: one `info` entry per recognition, with the wall-clock
    /// time it happened (the event's, not the entry's: the loop may log it a little later).
    private func logRecognition(_ event: GestureEvent) {
        let gesture = names.gesture(event.gesture)
        let panel = panel(event.device)
        let time = WallClock.iso8601(WallClock.seconds() - Double(max(0, loop.now() - event.time)) / 1_000_000)
        var fields = Logger.Metadata.journal(.gestureRecognized, panel: panel, gesture: gesture)
        fields[JournalField.state] = .string(event.state.description)
        fields[JournalField.time] = .string(time)
        let on = panel.map { " on '\($0.name)' (\($0.path))" } ?? ""
        logger.info("gesture '\(gesture)' \(event.state)\(on) at \(time)", metadata: fields)
    }

    /// What a gesture's state does to keys whatever its actions: its end lets go of its
    /// holds; its `began` restarts its step counts.
    private func keyTransitions(_ event: GestureEvent) {
        switch event.state {
        case .ended, .cancelled, .failed:
            keys.release(KeyPresser.Owner(gesture: event.gesture, device: event.device))
            armKeyTimer()
        case .began:
            for action in actions[event.gesture][.changed] ?? [] { action.steps?.reset() }
        default: break
        }
    }

    private func run(_ keyAction: KeyAction, _ action: PreparedAction, _ event: GestureEvent) {
        switch keyAction.mode {
        case .press(let delay):
            keys.press(keyAction.chord, delay: delay, at: event.time)
        case .hold:
            keys.hold(keyAction.chord, owner: KeyPresser.Owner(gesture: event.gesture, device: event.device), at: event.time)
        case .step(let measure, _, let back):
            let presses = action.steps?.presses(for: measure.value(of: event)) ?? 0
            for _ in 0..<abs(presses) { keys.press(presses > 0 ? keyAction.chord : back, delay: 0, at: event.time) }
        }
        armKeyTimer()
    }

    private func armKeyTimer() { keyTimer.set(keys.nextDeadline) }

    /// Delayed key-ups and the hold watchdog.
    private func advanceKeys() {
        for owner in keys.advance(to: loop.now()) {
            logger.warning(
                "keys held by gesture '\(names.gesture(owner.gesture))' released after \(KeyPresser.maximumHold / 1_000_000) s (the hold watchdog)"
            )
        }
        armKeyTimer()
    }

    /// `status.keyboard`, when the config has `keys` actions.
    public var keyboardStatus: KeyboardStatus? {
        guard !keyboardCodes.isEmpty else { return nil }
        return KeyboardStatus(
            name: KeyAction.keyboardName, path: keyboard?.devnode, keys: keyboardCodes.map(KeyNames.name(of:)),
            down: keys.down.map(KeyNames.name(of:)), frames: keys.framesSent, writeFailures: keys.failures,
            watchdogReleases: keys.watchdogReleases,
            error: keyboard == nil ? (keyboardError?.description ?? "not sent by a replay") : nil)
    }

    /// Every key up now (stop).
    public func releaseKeys() {
        keys.releaseAll()
        armKeyTimer()
    }

    /// Keeps the keyboard when its codes stay; else makes the one `codes` needs (none for
    /// none). A keyboard that cannot be made leaves `keys` actions unsent, logged.
    private func replaceKeyboard(codes: [UInt16]) {
        guard codes != keyboardCodes || keyboard == nil else { return }
        keyboard = nil
        keys.output = nil
        keyboardCodes = codes
        keyboardError = nil
        guard !codes.isEmpty, let makeKeyboard else { return }
        do {
            let made = try makeKeyboard(codes)
            keyboard = made
            keys.output = made
            logger.notice("keyboard '\(made.devnode)': \(codes.count) keys for keys actions")
        } catch {
            keyboardError = error
            logger.error("keys actions are not sent: gestured's keyboard: \(error)")
        }
    }

    /// True while commands run or socket messages wait (stopping waits for them, briefly).
    public var hasPendingWork: Bool { runner.running > 0 || targets.values.contains { $0.hasQueuedMessages } }

    /// Reaps exited children; call on SIGCHLD.
    public func reapChildren() { runner.reapAll() }

    /// Kills every child's process group (shutdown).
    public func killChildren() { runner.killAll() }

    /// Live processes started by commands: shells, and what they left behind once taken
    /// in (`adoptsOrphans`).
    public var runningChildren: Int { runner.running }

    /// The pids of `runningChildren`.
    var runningChildPIDs: [Int32] { runner.runningPIDs }

    /// Set when this process is a child subreaper (gestured): children it did not start
    /// are what commands left behind, and are counted, timed out and killed with them.
    public var adoptsOrphans: Bool {
        get { runner.adoptsOrphans }
        set { runner.adoptsOrphans = newValue }
    }

    /// The dispatcher's part of `status`: the counters plus the running children.
    public var status: MetricValues {
        var values = counters.values
        values[DispatcherMetrics.runningChildren] = Double(runningChildren)
        return values
    }

    /// Everything counted since start (commands and socket actions).
    public var counters: DispatcherCounters {
        var all = runner.counters
        all.socketMessagesSent = socketCounters.socketMessagesSent
        all.socketMessagesDropped = socketCounters.socketMessagesDropped
        all.socketFailures = socketCounters.socketFailures
        return all
    }
}

extension Dispatcher {
    /// Runs `[idle.on.sleep]` or `[idle.on.wake]` (commands, in order), with `GESTURE_TIME`
    /// and `GESTURE_IDLE` (`idle` or `active`) in their environment.
    public func dispatch(_ change: IdleChange, actions: [ActionSpec]) {
        let owner = "idle on.\(change.idle ? "sleep" : "wake")"
        for spec in actions {
            guard case .command(let command) = spec.kind else { continue }
            var writer = JSONWriter(capacity: 16)
            writer.fixed(Double(change.time - origin) / 1_000_000, decimals: 3)
            let variables = environment.variables(["TIME": String(decoding: writer.bytes, as: UTF8.self), "IDLE": change.state])
            runner.run(
                shell: settings.shell, command: command, environment: variables, gesture: owner,
                timeout: spec.timeout ?? settings.commandTimeout)
        }
    }
}
