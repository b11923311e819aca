/// What `status` says about a running daemon: one value that the daemon fills from its
/// parts and that three renderers print: the JSON reply (`json`, schema in
/// docs/PROTOCOL.md), `gesturectl status` (`StatusText`) and the Prometheus exposition
/// (`MetricsText`). gesturectl reads the reply back with `init(json:)`.
public struct DaemonStatus: Equatable, Sendable {
    public var version = ""
    public var pid = 0
    /// Seconds since start.
    public var uptime: Double = 0
    /// When the daemon started, seconds since the Unix epoch (millisecond precision).
    public var startTime: Double = 0
    public var config = ConfigStatus()
    public var devices: [DeviceStatus] = []
    public var unusableDevices: [UnusableDevice] = []
    public var engine = MetricValues(EngineMetrics.all)
    /// Only under `gestured --replay`.
    public var replay: ReplayStatus?
    public var views: [ViewStatus] = []
    public var gestures: [GestureStatus] = []
    public var pending: [PendingStatus] = []
    public var dispatcher = MetricValues(DispatcherMetrics.all)
    public var control = ControlStatus()
    public var refused = MetricValues(RefusalMetrics.all)
    /// The mode and the runtime changes in force (`set`, `mode`).
    public var runtime = RuntimeStatus()
    /// gestured's keyboard, when the config has `keys` actions.
    public var keyboard: KeyboardStatus?
    /// The idle rule, with `[idle]` only.
    public var idle: IdleStatus?

    public init() {}

    /// The `status` reply's `ok` object. Members only ever get added (at the end of their
    /// object), so older clients keep reading it.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("version", .string(version)), ("pid", .number(Double(pid))), ("uptime_s", .number(uptime)), ("config", config.json),
            ("devices", .array(devices.map(\.json))), ("unusable_devices", .array(unusableDevices.map(\.json))),
        ]
        members += engine.members
        if let replay { members.append(("replay", replay.json)) }
        members += [
            ("views", .array(views.map(\.json))), ("gestures", .array(gestures.map(\.json))),
            ("pending", .array(pending.map(\.json))), ("dispatcher", .object(dispatcher.members)), ("control", control.json),
            ("refused", .object(refused.members)), ("start_time_s", .number(startTime)), ("runtime", runtime.json),
        ]
        if let keyboard { members.append(("keyboard", keyboard.json)) }
        if let idle { members.append(("idle", idle.json)) }
        return .object(members)
    }

    /// Reads a `status` reply back; what is absent stays empty or 0, so a daemon with less
    /// to say (an older one) still reads.
    public init(json: JSONValue) {
        version = json["version"]?.stringValue ?? ""
        pid = json["pid"]?.intValue ?? 0
        uptime = json["uptime_s"]?.doubleValue ?? 0
        startTime = json["start_time_s"]?.doubleValue ?? 0
        config = json["config"].map(ConfigStatus.init(json:)) ?? ConfigStatus()
        devices = json["devices"]?.arrayValue?.map(DeviceStatus.init(json:)) ?? []
        unusableDevices = json["unusable_devices"]?.arrayValue?.map(UnusableDevice.init(json:)) ?? []
        engine = MetricValues(EngineMetrics.all, json: json)
        replay = json["replay"].map(ReplayStatus.init(json:))
        views = json["views"]?.arrayValue?.map(ViewStatus.init(json:)) ?? []
        gestures = json["gestures"]?.arrayValue?.map(GestureStatus.init(json:)) ?? []
        pending = json["pending"]?.arrayValue?.map(PendingStatus.init(json:)) ?? []
        dispatcher = MetricValues(DispatcherMetrics.all, json: json["dispatcher"])
        control = json["control"].map(ControlStatus.init(json:)) ?? ControlStatus()
        refused = MetricValues(RefusalMetrics.all, json: json["refused"])
        runtime = json["runtime"].map(RuntimeStatus.init(json:)) ?? RuntimeStatus()
        keyboard = json["keyboard"].map(KeyboardStatus.init(json:))
        idle = json["idle"].map(IdleStatus.init(json:))
    }
}

/// `status.keyboard`: gestured's uinput keyboard for `keys` actions.
public struct KeyboardStatus: Equatable, Sendable {
    public var name: String
    /// Its device node; nil when it could not be made (`error` says why).
    public var path: String?
    /// The keys it has (`KEY_F5`), and those down now.
    public var keys: [String]
    public var down: [String]
    /// Frames written, frames whose write failed, holds the watchdog ended.
    public var frames: Int
    public var writeFailures: Int
    public var watchdogReleases: Int
    public var error: String?

    public init(
        name: String, path: String?, keys: [String], down: [String] = [], frames: Int = 0, writeFailures: Int = 0,
        watchdogReleases: Int = 0, error: String? = nil
    ) {
        self.name = name
        self.path = path
        self.keys = keys
        self.down = down
        self.frames = frames
        self.writeFailures = writeFailures
        self.watchdogReleases = watchdogReleases
        self.error = error
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(name)), ("path", path.map(JSONValue.string) ?? .null), ("keys", .array(keys.map(JSONValue.string))),
            ("down", .array(down.map(JSONValue.string))), ("frames", .number(Double(frames))),
            ("write_failures", .number(Double(writeFailures))), ("watchdog_releases", .number(Double(watchdogReleases))),
        ]
        if let error { members.append(("error", .string(error))) }
        return .object(members)
    }

    init(json: JSONValue) {
        func strings(_ key: String) -> [String] { json[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        self.init(
            name: json["name"]?.stringValue ?? "?", path: json["path"]?.stringValue, keys: strings("keys"), down: strings("down"),
            frames: json["frames"]?.intValue ?? 0, writeFailures: json["write_failures"]?.intValue ?? 0,
            watchdogReleases: json["watchdog_releases"]?.intValue ?? 0, error: json["error"]?.stringValue)
    }
}

/// `status.config`: the file in force and how reloads went.
public struct ConfigStatus: Equatable, Sendable {
    public var path = ""
    /// The files of the running config: the main file, then its drop-ins in order.
    public var files: [String] = []
    public var lastReload: ReloadStatus?
    public var reloads = MetricValues(DaemonMetrics.reloadCounts)
    /// Uptime seconds when the config in force was loaded: 0 (the start) until a reload is
    /// taken; a refused reload leaves it.
    public var loadedAt: Double = 0
    /// `[daemon] metrics_interval`, seconds.
    public var metricsInterval: Double = 0

    public init(path: String = "", files: [String] = [], lastReload: ReloadStatus? = nil) {
        self.path = path
        self.files = files
        self.lastReload = lastReload
    }

    var json: JSONValue {
        .object([
            ("path", .string(path)), ("last_reload", lastReload?.json ?? .null), ("reloads", .object(reloads.members)),
            ("files", .array(files.map(JSONValue.string))), ("loaded_at_s", .number(loadedAt)),
            ("metrics_interval_s", .number(metricsInterval)),
        ])
    }

    init(json: JSONValue) {
        path = json["path"]?.stringValue ?? ""
        files = json["files"]?.arrayValue?.compactMap(\.stringValue) ?? []
        lastReload = json["last_reload"].flatMap { $0 == .null ? nil : ReloadStatus(json: $0) }
        reloads = MetricValues(DaemonMetrics.reloadCounts, json: json["reloads"])
        loadedAt = json["loaded_at_s"]?.doubleValue ?? 0
        metricsInterval = json["metrics_interval_s"]?.doubleValue ?? 0
    }
}

/// The last reload: when (seconds of uptime) and, when it was refused, every problem.
public struct ReloadStatus: Equatable, Sendable {
    public var at: Double
    public var error: String?

    public init(at: Double, error: String?) {
        self.at = at
        self.error = error
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("at_s", .number(at)), ("ok", .bool(error == nil))]
        if let error { members.append(("error", .string(error))) }
        return .object(members)
    }

    init(json: JSONValue) {
        at = json["at_s"]?.doubleValue ?? 0
        error = json["ok"]?.boolValue == true ? nil : json["error"]?.stringValue ?? "?"
    }
}

/// A touchscreen in use.
public struct DeviceStatus: Equatable, Sendable {
    public var name: String
    /// Its device node (or the recording it replays).
    public var path: String
    /// udev's `ID_PATH` (the port it is plugged into: the same after a replug or a reboot);
    /// the device node where udev has none.
    public var idPath: String
    /// Where its calibration came from.
    public var calibration: String
    public var values = MetricValues(DeviceMetrics.all)
    /// Touch delivery, on a panel with `passthrough = true`.
    public var delivery: DeliveryStatus?
    /// Why a panel with `passthrough = true` cannot be grabbed at all (its input is not a device).
    public var grabImpossible: String?
    /// Only in the `devices` reply.
    public var detail: DeviceDetail?
    public var input = MetricValues(DeviceMetrics.input)
    /// Uptime seconds of its last frame; nil before the first.
    public var lastFrame: Double?
    /// The health stage's state of the panel (`ok`, `noisy`, `silent`).
    public var health = "ok"
    public var filtered = MetricValues(DeviceMetrics.filteredRules)
    /// Uptime seconds of the last touch the health stage let through; nil before the first.
    public var lastTouch: Double?
    /// Frames the panel sent within the last second.
    public var activity = MetricValues(DeviceMetrics.activity)
    /// The recurring spots the health stage masks now.
    public var maskedSpots: [MaskedSpotStatus] = []

    public init(name: String, path: String, idPath: String? = nil, calibration: String) {
        self.name = name
        self.path = path
        self.idPath = idPath ?? path
        self.calibration = calibration
    }

    /// One element of `status.devices` and of the `devices` reply.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name)), ("path", .string(path))]
        members += values.members
        members.append(("calibration", .string(calibration)))
        members += delivery?.members ?? [("grabbed", .bool(false))] + (grabImpossible.map { [("grab", .string($0))] } ?? [])
        members += detail?.members ?? []
        members += input.members + [("last_frame_at_s", lastFrame.map { .number($0) } ?? .null)]
        members += [("health", .string(health)), ("filtered", .object(filtered.members))]
        members.append(("last_touch_at_s", lastTouch.map { .number($0) } ?? .null))
        members += activity.members + [("masked_spots", .array(maskedSpots.map(\.json)))]
        members.append(("id_path", .string(idPath)))
        if let histogram = delivery?.delayHistogram { members.append(("delay_histogram", histogram.json)) }
        return .object(members)
    }

    init(json: JSONValue) {
        name = json["name"]?.stringValue ?? "?"
        path = json["path"]?.stringValue ?? "?"
        idPath = json["id_path"]?.stringValue ?? path
        calibration = json["calibration"]?.stringValue ?? "?"
        values = MetricValues(DeviceMetrics.all, json: json)
        delivery = json["virtual"] == nil ? nil : DeliveryStatus(json: json)
        grabImpossible = delivery == nil ? json["grab"]?.stringValue : nil
        detail = json["vendor"] == nil ? nil : DeviceDetail(json: json)
        input = MetricValues(DeviceMetrics.input, json: json)
        lastFrame = json["last_frame_at_s"]?.doubleValue
        health = json["health"]?.stringValue ?? "ok"
        filtered = MetricValues(DeviceMetrics.filteredRules, json: json["filtered"])
        lastTouch = json["last_touch_at_s"]?.doubleValue
        activity = MetricValues(DeviceMetrics.activity, json: json)
        maskedSpots = json["masked_spots"]?.arrayValue?.map(MaskedSpotStatus.init(json:)) ?? []
    }
}

/// A recurring spot the health stage masks: where (screen px), since when and until when
/// (uptime seconds; `until`: unless a contact lands on it before, which keeps it masked).
public struct MaskedSpotStatus: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var since: Double
    public var until: Double

    public init(x: Double, y: Double, since: Double, until: Double) {
        self.x = x
        self.y = y
        self.since = since
        self.until = until
    }

    var json: JSONValue {
        .object([("x", .number(x)), ("y", .number(y)), ("since_s", .number(since)), ("until_s", .number(until))])
    }

    init(json: JSONValue) {
        self.init(
            x: json["x"]?.doubleValue ?? 0, y: json["y"]?.doubleValue ?? 0, since: json["since_s"]?.doubleValue ?? 0,
            until: json["until_s"]?.doubleValue ?? 0)
    }
}

/// A grabbed panel's touch delivery: the clone applications read and what went to it.
public struct DeliveryStatus: Equatable, Sendable {
    public var grabbed: Bool
    /// `taken`, or why the grab waits.
    public var grab: String
    /// The clone's device node.
    public var virtual: String
    /// How contacts a gesture took are cancelled on the clone.
    public var cancel: String
    public var counts = MetricValues(DeviceMetrics.delivery)
    /// The pass-through delay percentiles, once a frame went through.
    public var delay: MetricValues?
    /// Every frame's pass-through delay (`DeviceMetrics.delayHistogram`); nil from a daemon
    /// that does not count them.
    public var delayHistogram: Histogram?
    public var lastWriteError: String?

    public init(grabbed: Bool, grab: String, virtual: String, cancel: String) {
        self.grabbed = grabbed
        self.grab = grab
        self.virtual = virtual
        self.cancel = cancel
    }

    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("grabbed", .bool(grabbed)), ("grab", .string(grab)), ("virtual", .string(virtual)), ("cancel", .string(cancel)),
        ]
        members += counts.members + (delay?.members ?? [])
        if let lastWriteError { members.append(("last_write_error", .string(lastWriteError))) }
        return members
    }

    init(json: JSONValue) {
        grabbed = json["grabbed"]?.boolValue ?? false
        grab = json["grab"]?.stringValue ?? "?"
        virtual = json["virtual"]?.stringValue ?? "?"
        cancel = json["cancel"]?.stringValue ?? "?"
        counts = MetricValues(DeviceMetrics.delivery, json: json)
        delay = json[DeviceMetrics.delayP50.key] == nil ? nil : MetricValues(DeviceMetrics.delay, json: json)
        delayHistogram = Histogram(bounds: DeviceMetrics.delayBounds, json: json["delay_histogram"])
        lastWriteError = json["last_write_error"]?.stringValue
    }
}

/// What only the `devices` reply says of a device.
public struct DeviceDetail: Equatable, Sendable {
    public var vendor: Int
    public var product: Int
    /// The `[[device]]` rule that maps it, or `identity`.
    public var mapping: String
    public var calibrationMatrix: [Double]

    public init(vendor: Int, product: Int, mapping: String, calibrationMatrix: [Double]) {
        self.vendor = vendor
        self.product = product
        self.mapping = mapping
        self.calibrationMatrix = calibrationMatrix
    }

    var members: [(String, JSONValue)] {
        [
            ("vendor", .number(Double(vendor))), ("product", .number(Double(product))), ("mapping", .string(mapping)),
            ("calibration_matrix", .array(calibrationMatrix.map { .number($0) })),
        ]
    }

    init(json: JSONValue) {
        vendor = json["vendor"]?.intValue ?? 0
        product = json["product"]?.intValue ?? 0
        mapping = json["mapping"]?.stringValue ?? "?"
        calibrationMatrix = json["calibration_matrix"]?.arrayValue?.compactMap(\.doubleValue) ?? []
    }
}

/// A touchscreen found but not opened, with the error and its fix.
public struct UnusableDevice: Equatable, Sendable {
    public var path: String
    public var name: String
    public var error: String

    public init(path: String, name: String, error: String) {
        self.path = path
        self.name = name
        self.error = error
    }

    var json: JSONValue { .object([("path", .string(path)), ("name", .string(name)), ("error", .string(error))]) }

    init(json: JSONValue) {
        self.init(
            path: json["path"]?.stringValue ?? "?", name: json["name"]?.stringValue ?? "?", error: json["error"]?.stringValue ?? "?")
    }
}

/// `gestured --replay`: the recording and whether it plays.
public struct ReplayStatus: Equatable, Sendable {
    public var path: String
    /// `waiting`, `playing` or `finished`.
    public var state: String

    public init(path: String, state: String) {
        self.path = path
        self.state = state
    }

    var json: JSONValue { .object([("path", .string(path)), ("state", .string(state))]) }

    init(json: JSONValue) { self.init(path: json["path"]?.stringValue ?? "?", state: json["state"]?.stringValue ?? "?") }
}

/// A view of the config and its frame in screen px.
public struct ViewStatus: Equatable, Sendable {
    public var name: String
    public var parent: String?
    /// x, y, width, height: where the view is now (after runtime changes), screen px.
    public var frame: [Double]
    /// Takes touches (the config's, a mode's or a `set`'s `enabled`).
    public var enabled: Bool

    public init(name: String, parent: String?, frame: [Double], enabled: Bool = true) {
        self.name = name
        self.parent = parent
        self.frame = frame
        self.enabled = enabled
    }

    var json: JSONValue {
        .object([
            ("name", .string(name)), ("parent", parent.map { .string($0) } ?? .null), ("frame", .array(frame.map { .number($0) })),
            ("enabled", .bool(enabled)),
        ])
    }

    init(json: JSONValue) {
        self.init(
            name: json["name"]?.stringValue ?? "?", parent: json["parent"]?.stringValue,
            frame: json["frame"]?.arrayValue?.compactMap(\.doubleValue) ?? [], enabled: json["enabled"]?.boolValue ?? true)
    }
}

/// A gesture of the config, its state now and its recognitions.
public struct GestureStatus: Equatable, Sendable {
    public var name: String
    public var type: String
    public var view: String
    public var state: String
    public var values = MetricValues(GestureMetrics.all)
    /// Events emitted, by state (the type's states only).
    public var events: MetricValues
    /// Recognizes (the config's, a mode's or a `set`'s `enabled`).
    public var enabled = true

    public init(name: String, type: String, view: String, state: String, continuous: Bool) {
        self.name = name
        self.type = type
        self.view = view
        self.state = state
        events = MetricValues(GestureMetrics.eventMetrics(continuous: continuous))
    }

    var json: JSONValue {
        .object(
            [("name", .string(name)), ("type", .string(type)), ("view", .string(view)), ("state", .string(state))] + values.members
                + [("events", .object(events.members)), ("enabled", .bool(enabled))])
    }

    init(json: JSONValue) {
        self.init(
            name: json["name"]?.stringValue ?? "?", type: json["type"]?.stringValue ?? "?", view: json["view"]?.stringValue ?? "?",
            state: json["state"]?.stringValue ?? "?", continuous: json["events"]?["recognized"] == nil)
        values = MetricValues(GestureMetrics.all, json: json)
        events = MetricValues(events.metrics, json: json["events"])
        enabled = json["enabled"]?.boolValue ?? true
    }
}

/// A recognition held by failure requirements.
public struct PendingStatus: Equatable, Sendable {
    public var gesture: String
    public var waitingFor: [String]
    /// Milliseconds it has waited.
    public var milliseconds: Double

    public init(gesture: String, waitingFor: [String], milliseconds: Double) {
        self.gesture = gesture
        self.waitingFor = waitingFor
        self.milliseconds = milliseconds
    }

    var json: JSONValue {
        .object([
            ("gesture", .string(gesture)), ("waiting_for", .array(waitingFor.map { .string($0) })), ("ms", .number(milliseconds)),
        ])
    }

    init(json: JSONValue) {
        self.init(
            gesture: json["gesture"]?.stringValue ?? "?", waitingFor: json["waiting_for"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            milliseconds: json["ms"]?.doubleValue ?? 0)
    }
}

/// The control socket: where it is and its connections.
public struct ControlStatus: Equatable, Sendable {
    public var path = ""
    public var values = MetricValues(ControlMetrics.all)

    public init(path: String = "") { self.path = path }

    var json: JSONValue { .object([("path", .string(path))] + values.members) }

    init(json: JSONValue) {
        path = json["path"]?.stringValue ?? "?"
        values = MetricValues(ControlMetrics.all, json: json)
    }
}
