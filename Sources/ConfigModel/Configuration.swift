import GestureCore

/// A whole validated config (its main file and drop-ins): what the daemon runs. `model` goes to the engine,
/// `actions` (indexed like `model.gestures`) to the dispatcher, `devices` to input.
public struct Configuration: Sendable {
    public var daemon: DaemonSettings
    public var model: GestureModel
    public var devices: [DeviceRule]
    /// `actions[g]` are the actions of `model.gestures[g]`.
    public var actions: [GestureActions]
    /// What `check` (and the daemon's log) warns about: what the readers found (a socket
    /// anyone may use), in the order found, then what the whole model says (tap pairs).
    public var warnings: [ConfigWarning] = []
    /// The files it was read from, in order: the main file, then the drop-ins.
    public var files: [String] = []
    /// `[mode.NAME]`: what each mode turns on or off while it is in force, in file order.
    public var modes: [ModeSpec] = []
    /// `[idle]`: the screen that sleeps and wakes without a click; nil: none.
    public var idle: IdleRule?

    public init(daemon: DaemonSettings, model: GestureModel, devices: [DeviceRule], actions: [GestureActions]) {
        self.daemon = daemon
        self.model = model
        self.devices = devices
        self.actions = actions
    }
}

/// `[daemon]`: how the service runs. Defaults are the documented ones.
public struct DaemonSettings: Equatable, Sendable {
    /// Control and event socket; nil: `--socket`, `$GESTURED_SOCKET`, `/run/gestured/...`, `$XDG_RUNTIME_DIR/...`.
    public var socketPath: String?
    public var socketMode: UInt32 = 0o660
    public var socketGroup: String?
    /// The kiosk application's group: may look and shape the gesture layer (set, mode,
    /// reset) but not reload, trigger or replay; nil: whoever connects may do everything.
    public var controlGroup: String?
    /// swift-log level name: trace, debug, info, notice, warning, error, critical.
    public var logLevel: String = "info"
    /// The shell command actions run through (`shell -c command`).
    public var shell: String = "/bin/sh"
    /// Extra environment for actions, in file order.
    public var environment: [EnvironmentEntry] = []
    /// Default timeout of a command action before SIGTERM (then SIGKILL after `killGrace`).
    public var commandTimeout: Microseconds = 10_000_000
    public var killGrace: Microseconds = 2_000_000
    /// Most command children running at once; further ones are refused and counted.
    public var maxChildren: Int = 16
    /// Bytes buffered per event-stream subscriber before it is disconnected.
    public var subscriberBuffer: Int = 65_536
    /// Messages queued per socket action target before new ones are dropped.
    public var socketQueue: Int = 64
    /// Where the Prometheus exposition is written every `metricsInterval` (node_exporter's
    /// textfile collector reads it); nil: not written.
    public var metricsFile: String?
    public var metricsInterval: Microseconds = 15_000_000
    /// Log each recognition at `info`, with its wall-clock time (`MessageID.gestureRecognized`).
    public var logRecognitions = false
    /// The display's refresh: continuous gestures' `on.changed` actions run at most once per
    /// frame of it, and coalescing subscribers get their `changed` lines at it.
    public var frameRate: FrameRate = .hertz(60)

    public init() {}
}

public struct EnvironmentEntry: Equatable, Sendable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// `[[device]]`: which touchscreens a mapping applies to. Every set field must match.
public struct DeviceRule: Equatable, Sendable {
    public var match: DeviceMatch
    public var mapping: DeviceMapping
    /// The rule sets `calibration` itself; otherwise udev's `LIBINPUT_CALIBRATION_MATRIX`
    /// applies, as it does for libinput and the compositor.
    public var setsCalibration: Bool
    /// `ignore = true`: gestured leaves the touchscreens this rule matches alone.
    public var ignore: Bool
    /// Touch delivery: grab the panel and forward what gestures leave to a virtual clone.
    public var passthrough: Bool
    /// How a cancelled touch reaches the application through the clone.
    public var cancel: CancelMode
    /// `[device.health]`: what the health stage filters and watches.
    public var health: TouchHealthSettings
    /// `[device.on.noisy]`, `[device.on.silent]`, `[device.on.ok]`: what runs when a panel's
    /// health changes.
    public var healthActions: HealthActions
    public init(
        match: DeviceMatch, mapping: DeviceMapping, setsCalibration: Bool = false, ignore: Bool = false,
        passthrough: Bool = false, cancel: CancelMode = .release, health: TouchHealthSettings = TouchHealthSettings(),
        healthActions: HealthActions = HealthActions()
    ) {
        self.match = match
        self.mapping = mapping
        self.setsCalibration = setsCalibration
        self.ignore = ignore
        self.passthrough = passthrough
        self.cancel = cancel
        self.health = health
        self.healthActions = healthActions
    }
}

/// What runs when a panel's health changes to a state, per state.
public struct HealthActions: Equatable, Sendable {
    public var byState: [HealthState: [ActionSpec]]
    /// A health action's cooldown unless it sets one: a panel that flaps between noisy and
    /// ok must not reset itself in a loop.
    public static let defaultCooldown: Microseconds = 600_000_000
    public init(byState: [HealthState: [ActionSpec]] = [:]) { self.byState = byState }
}

/// Whom an action belongs to: what its message may name, and its cooldown unless it sets one.
public enum ActionOwner: Equatable, Sendable {
    case gesture(GestureType)
    /// A `[[device]]`'s `on.noisy`, `on.silent` or `on.ok`.
    case health
    /// `[idle]`'s `on.sleep` or `on.wake` (commands only).
    case idle

    public var fieldNames: [String] {
        switch self {
        case .gesture: MessageTemplate.fieldNames
        case .health: MessageTemplate.healthFieldNames
        case .idle: []
        }
    }

    package var defaultCooldown: Microseconds {
        switch self {
        case .gesture, .idle: 0
        case .health: HealthActions.defaultCooldown
        }
    }
}

/// `cancel` of a `[[device]]`: how the virtual touchscreen tells the application that a
/// touch it saw was cancelled.
public enum CancelMode: String, Equatable, Sendable, CaseIterable {
    /// The contact turns into a palm (`MT_TOOL_PALM`) for one frame, then lifts: libinput
    /// reports `TOUCH_CANCEL`. Only for compositors that honour it (docs/CONFIG.md).
    case palm
    /// The contact lifts: every compositor sees a touch up (an application may take it as
    /// a click). The safe default where the compositor's handling is unknown.
    case release
}

public struct DeviceMatch: Equatable, Sendable {
    /// Glob over the device name (`*`, `?`).
    public var name: String?
    public var vendor: UInt16?
    public var product: UInt16?
    /// udev `ID_PATH` or the devnode, exact.
    public var path: String?
    /// A udev property that must have this value.
    public var property: EnvironmentEntry?
    public init(
        name: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil,
        path: String? = nil, property: EnvironmentEntry? = nil
    ) {
        self.name = name
        self.vendor = vendor
        self.product = product
        self.path = path
        self.property = property
    }
}

/// `[mode.NAME]`: gestures and views a mode enables or disables while it is in force
/// (indices into the model's gestures and views), in file order.
public struct ModeSpec: Equatable, Sendable {
    /// One gesture or view the mode sets.
    public struct Toggle: Equatable, Sendable {
        public var index: Int
        public var enabled: Bool
        public init(index: Int, enabled: Bool) {
            self.index = index
            self.enabled = enabled
        }
    }
    public var name: String
    public var gestures: [Toggle]
    public var views: [Toggle]

    public init(name: String, gestures: [Toggle] = [], views: [Toggle] = []) {
        self.name = name
        self.gestures = gestures
        self.views = views
    }

    /// The name a mode switch uses for "no mode" (`mode = "none"`); no mode may take it.
    public static let none = "none"
}

/// What one gesture does, per state it reaches.
public struct GestureActions: Equatable, Sendable {
    /// `on.recognized` (discrete), `on.began` / `on.changed` / `on.ended` / `on.cancelled` (continuous).
    public var byState: [GestureState: [ActionSpec]]
    public init(byState: [GestureState: [ActionSpec]] = [:]) { self.byState = byState }
}

/// One action: a shell command, a message to a Unix socket, keys, or a mode switch.
public struct ActionSpec: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Run through `DaemonSettings.shell -c`; values arrive as `GESTURE_*` environment variables.
        case command(String)
        /// Send to a Unix socket; nil message sends the event's JSON line.
        case socket(path: String, message: MessageTemplate?, datagram: Bool)
        /// Switch to a `[mode.NAME]` (nil: none), ending by itself after `duration`
        /// (`mode = "NAME"`, `for = "60s"`). The pipeline performs it
        /// (`GesturePipeline.performModeAction`), not the dispatcher.
        case mode(String?, duration: Microseconds?)
        /// Send keys through gestured's keyboard (`keys = "leftctrl+r"`). The dispatcher's
        /// `KeyPresser` presses them.
        case keys(KeyAction)
    }
    public var kind: Kind
    /// Further firings within this time of the last one are skipped (0: none).
    public var cooldown: Microseconds
    /// Command actions: overrides `DaemonSettings.commandTimeout`.
    public var timeout: Microseconds?
    /// `on.changed` actions: overrides `DaemonSettings.frameRate` (nil: the daemon's).
    public var frameRate: FrameRate?

    public init(kind: Kind, cooldown: Microseconds = 0, timeout: Microseconds? = nil, frameRate: FrameRate? = nil) {
        self.kind = kind
        self.cooldown = cooldown
        self.timeout = timeout
        self.frameRate = frameRate
    }
}

/// How often a continuous gesture's `changed` actions may run (`frame_rate`): at most once
/// per display frame of a rate, as UIKit runs a recognizer's action once per display frame,
/// or at every frame of the panel (`"every-frame"`).
public enum FrameRate: Equatable, Sendable, CustomStringConvertible {
    case everyFrame
    case hertz(Int)

    /// The shortest time between two runs; nil at every frame.
    public var period: Microseconds? {
        switch self {
        case .everyFrame: nil
        case .hertz(let rate): (1_000_000 + Microseconds(rate) / 2) / Microseconds(rate)
        }
    }

    public var description: String {
        switch self {
        case .everyFrame: "\"every-frame\""
        case .hertz(let rate): "\(rate)"
        }
    }
}

extension Configuration {
    /// The period at which an `on.changed` action runs (its own `frame_rate`, else the
    /// daemon's); nil at every frame: mode switches are the pipeline's own and key steps
    /// count every change, so neither is paced.
    public func changedPeriod(of action: ActionSpec) -> Microseconds? {
        switch action.kind {
        case .mode, .keys: nil
        case .command, .socket: (action.frameRate ?? daemon.frameRate).period
        }
    }

    /// Per gesture, the distinct periods of its paced `on.changed` actions.
    public var changedPeriods: [[Microseconds]] {
        actions.map { gesture in
            var periods: [Microseconds] = []
            for spec in gesture.byState[.changed] ?? [] {
                if let period = changedPeriod(of: spec), !periods.contains(period) { periods.append(period) }
            }
            return periods
        }
    }
}

/// A message with `{field}` placeholders naming the event's JSON fields (`{gesture}`, `{x}`...).
public struct MessageTemplate: Equatable, Sendable {
    public enum Segment: Equatable, Sendable {
        case text(String)
        case field(String)
    }
    public var segments: [Segment]

    /// The placeholders a template may use: the event JSON's field names.
    public static let fieldNames: [String] = [
        "t", "gesture", "type", "state", "view", "x", "y", "touches",
        "translation_x", "translation_y", "velocity_x", "velocity_y",
        "scale", "velocity", "rotation", "direction", "edge", "delayed_from", "device",
    ]

    /// The placeholders of a health action's message: the health line's fields, then the
    /// panel's name and device node (its `status` `name` and `path`).
    public static let healthFieldNames = ["t", "device", "health", "reason", "device_name", "device_path"]

    /// The placeholders every event fills, in the event JSON's order.
    public static let commonFieldNames = ["t", "gesture", "type", "state", "view", "x", "y", "touches"]

    /// The placeholders only some gesture types fill, those of `type` in the event JSON's
    /// order (the rest of `fieldNames` every event fills, `delayed_from` and `device` included).
    public static func typeFieldNames(for type: GestureType) -> [String] {
        let pan = ["translation_x", "translation_y", "velocity_x", "velocity_y"]
        return switch type {
        case .pan: pan
        case .edgePan: pan + ["edge"]
        case .pinch: ["scale", "velocity"]
        case .rotation: ["rotation", "velocity"]
        case .swipe: ["direction"]
        case .tap, .longPress: []
        }
    }

    /// The placeholders a message of a gesture of `type` may use: a field the type never
    /// fills would be sent as an invented 0 or nothing.
    public static func fieldNames(for type: GestureType) -> [String] {
        let typeOnly = Set(GestureType.allCases.flatMap(typeFieldNames(for:)))
        let own = typeFieldNames(for: type)
        return fieldNames.filter { !typeOnly.contains($0) || own.contains($0) }
    }

    public init(segments: [Segment]) { self.segments = segments }
}
