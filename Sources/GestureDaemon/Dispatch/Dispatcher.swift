import GestureConfig
import GestureControl
import GestureCore
import JSONOutput
import LinuxSystem
import Logging
import TouchInput

/// Turns gesture events into the configured actions without ever blocking the loop:
/// commands through `CommandRunner`, messages through one `SocketTarget` per socket.
public final class Dispatcher {
    private final class PreparedAction {
        enum Kind {
            case command(String, timeout: Microseconds)
            case socket(SocketTarget, CompiledTemplate?)
        }
        let kind: Kind
        let cooldown: Microseconds
        var lastFired: Microseconds?

        init(kind: Kind, cooldown: Microseconds) {
            self.kind = kind
            self.cooldown = cooldown
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
    private var targets: [SocketTarget.Key: SocketTarget] = [:]
    private var socketCounters = DispatcherCounters()
    private var message = JSONWriter()
    /// The mode in force, for the commands' `GESTURE_MODE` (`none` without one).
    public var mode = "none"

    /// `origin` is the time that `t` counts from (the daemon's start).
    public init(loop: EventLoop, configuration: Configuration, origin: Microseconds, logger: Logger) throws {
        self.loop = loop
        self.logger = logger
        self.origin = origin
        settings = configuration.daemon
        names = GestureNames(model: configuration.model)
        environment = ActionEnvironment(settings: configuration.daemon)
        runner = try CommandRunner(loop: loop, maxChildren: settings.maxChildren, killGrace: settings.killGrace, logger: logger)
        UnixSocket.ignoreSIGPIPE()
        try reconfigure(configuration)
    }

    /// Takes a reloaded configuration. Running children and queued socket messages stay;
    /// cooldowns restart. Throws (changing nothing) on a template with an unknown field.
    public func reconfigure(_ configuration: Configuration) throws {
        var prepared: [[GestureState: [PreparedAction]]] = []
        var targets: [SocketTarget.Key: SocketTarget] = [:]
        for gesture in configuration.actions {
            var byState: [GestureState: [PreparedAction]] = [:]
            for (state, specs) in gesture.byState {
                byState[state] = try specs.map { spec throws -> PreparedAction in
                    switch spec.kind {
                    case .command(let command):
                        return PreparedAction(
                            kind: .command(command, timeout: spec.timeout ?? configuration.daemon.commandTimeout),
                            cooldown: spec.cooldown)
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
                        return PreparedAction(kind: .socket(target, try template.map(CompiledTemplate.init)), cooldown: spec.cooldown)
                    }
                }
            }
            prepared.append(byState)
        }
        actions = prepared
        self.targets = targets
        settings = configuration.daemon
        names = GestureNames(model: configuration.model)
        environment = ActionEnvironment(settings: configuration.daemon)
        runner.maxChildren = settings.maxChildren
        runner.killGrace = settings.killGrace
        runner.orphanTimeout = settings.commandTimeout
    }

    /// Runs the actions of the event's gesture for its state.
    public func dispatch(_ event: GestureEvent) {
        guard actions.indices.contains(event.gesture), let list = actions[event.gesture][event.state] else { return }
        // An index loop: an unspecialized array iterator allocates in a debug build.
        for i in 0..<list.count {
            let action = list[i]
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
            }
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
