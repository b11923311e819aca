// The numbers of `status`, declared once per owner. Help texts are what the exposition's
// `# HELP` lines and docs/PROTOCOL.md say; a test holds the doc to these lists.

import GestureCore

/// The dispatcher's counters (`status.dispatcher`): command and socket actions.
public enum DispatcherMetrics {
    public static let commandsStarted = Metric.counter("commands_started", help: "Command actions started.")
    public static let commandsRefused = Metric.counter(
        "commands_refused", help: "Command actions refused because max_children were already running.")
    public static let spawnFailures = Metric.counter("spawn_failures", help: "Command actions whose process could not be started.")
    public static let commandsFailed = Metric.counter(
        "commands_failed", help: "Commands that exited non-zero or died from a signal (timeouts included).")
    public static let commandsTimedOut = Metric.counter("commands_timed_out", help: "Commands killed at their timeout.")
    public static let cooldownSkips = Metric.counter(
        "cooldown_skips", help: "Action firings skipped because their cooldown had not passed.")
    public static let socketMessagesSent = Metric.counter("socket_messages_sent", help: "Socket action messages sent.")
    public static let socketMessagesDropped = Metric.counter(
        "socket_messages_dropped", help: "Socket action messages dropped because the target's queue was full.")
    public static let socketFailures = Metric.counter("socket_failures", help: "Socket action connects and sends that failed.")
    public static let runningChildren = Metric.gauge("running_children", help: "Processes started by command actions still running.")

    public static let all = [
        commandsStarted, commandsRefused, spawnFailures, commandsFailed, commandsTimedOut, cooldownSkips, socketMessagesSent,
        socketMessagesDropped, socketFailures, runningChildren,
    ]
}

/// The control socket's (`status.control`).
public enum ControlMetrics {
    public static let connections = Metric.gauge(
        "connections", named: "control_connections", help: "Open connections to the control socket.")
    public static let subscribers = Metric.gauge(
        "subscribers", named: "control_subscribers", help: "Connections subscribed to the event stream.")
    public static let droppedSubscribers = Metric.counter(
        "dropped_subscribers", named: "control_dropped_subscribers", help: "Subscribers disconnected for falling behind.")
    public static let evictedConnections = Metric.counter(
        "evicted_connections", named: "control_evicted_connections", help: "Idle connections closed to make room for a new one.")

    public static let all = [connections, subscribers, droppedSubscribers, evictedConnections]
}

/// What was refused at a bound (`status.refused`, docs/LIMITS.md): one family, by reason.
public enum RefusalMetrics {
    public static let family = MetricFamily(
        "refused", .counter, labels: ["reason"], help: "Inputs refused at a bound (docs/LIMITS.md), by reason.")
    public static let connections = Metric("connections", family, labelValues: ["connections"])
    public static let requestsTooLarge = Metric("requests_too_large", family, labelValues: ["requests_too_large"])
    public static let unadvertisedEvents = Metric("unadvertised_events", family, labelValues: ["unadvertised_events"])
    public static let commands = Metric("commands", family, labelValues: ["commands"])
    public static let slotsClamped = Metric("slots_clamped", family, labelValues: ["slots_clamped"])

    public static let all = [connections, requestsTooLarge, unadvertisedEvents, commands, slotsClamped]
}

/// The engine's (top-level members of `status`).
public enum EngineMetrics {
    public static let droppedContacts = Metric.counter(
        "dropped_contacts", help: "Contacts ignored because the engine already tracked 64.")
    public static let engineBugs = Metric.counter(
        "engine_bugs", help: "Phase changes the engine refused because its own rules forbid them (0 unless it has a bug).")

    public static let all = [droppedContacts, engineBugs]
}

/// Per gesture (`status.gestures[]`), labelled by the gesture's name from the config.
public enum GestureMetrics {
    public static let count = Metric.counter(
        "count", named: "gesture_recognitions", labels: ["gesture"], help: "Recognitions of the gesture since start.")

    public static let all = [count]

    /// The events a gesture emitted (what actions and subscribers receive), by state:
    /// `status.gestures[].events`.
    public static let events = MetricFamily(
        "gesture_events", .counter, labels: ["gesture", "state"], help: "Events the gesture emitted (to actions and subscribers), by state."
    )
    public static let eventStates = ["recognized", "began", "changed", "ended", "cancelled"]

    /// The states a gesture's events can have: a single `recognized` for discrete types,
    /// began to cancelled for continuous ones.
    public static func eventMetrics(continuous: Bool) -> [Metric] {
        (continuous ? Array(eventStates.dropFirst()) : ["recognized"]).map { Metric($0, events, labelValues: [$0]) }
    }
}

/// Per touchscreen in use (`status.devices[]`), labelled by its name and udev's `ID_PATH`
/// (the port it is plugged into), which a replug or a reboot keeps, where the device node
/// (`/dev/input/eventN`) may change; `device_info` maps the two to the node.
public enum DeviceMetrics {
    static let labels = ["device", "id_path"]
    public static let info = MetricFamily(
        "device_info", .gauge, labels: labels + ["path"],
        help: "Always 1: the panel's device node now (it may change at a replug; id_path does not).")
    public static let contacts = Metric.gauge("contacts", named: "device_contacts", labels: labels, help: "Contacts down on the panel now.")
    public static let all = [contacts]

    /// What the panel sent: frames (a touchscreen sends them only while touched) and the
    /// kernel's buffer overflows.
    public static let frames = Metric.counter("frames", named: "device_frames", labels: labels, help: "Frames the panel sent.")
    public static let synDropped = Metric.counter(
        "syn_dropped", named: "device_syn_dropped", labels: labels, help: "Times the kernel dropped the panel's events (SYN_DROPPED).")
    public static let input = [frames, synDropped]

    /// The touch health stage: contacts it filtered, by rule (`status.devices[].filtered`;
    /// `stuck` is the stuck contacts released).
    public static let filtered = MetricFamily(
        "device_contacts_filtered", .counter, labels: labels + ["rule"],
        help: "Contacts the health stage kept from the gestures and the application, by rule.")
    /// One per `HealthRule`, in its order, labelled with its name: a rule is declared once,
    /// in the engine.
    public static let filteredRules = HealthRule.allCases.map { Metric($0.description, filtered, labelValues: [$0.description]) }
    public static let lastFrame = MetricFamily(
        "device_last_frame_timestamp", .gauge, unit: .seconds, labels: labels,
        help: "When the panel last sent a frame (the daemon's start until it sends one), seconds since the Unix epoch.")
    /// The health stage's view of the panel's activity: a person's last touch (a noisy panel
    /// sends frames nobody made), the frame rate now, the recurring spots masked now and
    /// the panel's state.
    public static let lastTouch = MetricFamily(
        "device_last_touch_timestamp", .gauge, unit: .seconds, labels: labels,
        help:
            "When a touch the health stage let through was last on the panel (the daemon's start until one is), seconds since the Unix epoch."
    )
    /// Status only: the exposition's `device_frames_total` gives a scraper the rate over
    /// any window, and sums across a fleet.
    public static let framesPerSecond = Metric.gauge(
        "frames_per_second", named: "device_frames_per_second", labels: labels, exposed: false,
        help: "Frames the panel sent within the last second.")
    public static let activity = [framesPerSecond]
    public static let maskedSpots = MetricFamily(
        "device_masked_spots", .gauge, labels: labels, help: "Recurring spots the health stage masks now.")
    public static let health = MetricFamily(
        "device_health", .gauge, labels: labels + ["state"],
        help: "1 for the panel's health state now (ok, noisy, silent), 0 for the others.")
    /// The states as `HealthState` names them.
    public static let healthStates = HealthState.allCases.map(\.description)

    /// Touch delivery (`passthrough = true`): the grab and what went through the clone.
    public static let grabbed = Metric.gauge(
        "grabbed", named: "device_grabbed", labels: labels, help: "1 while the panel is grabbed for touch delivery.")
    public static let passed = Metric.counter(
        "passed", named: "device_contacts_passed", labels: labels, help: "Contacts passed through to the virtual clone.")
    public static let delayed = Metric.counter(
        "delayed", named: "device_contacts_delayed", labels: labels, help: "Contacts passed through after being held back.")
    public static let cancelled = Metric.counter(
        "cancelled", named: "device_contacts_cancelled", labels: labels, help: "Contacts cancelled on the clone for a gesture.")
    public static let writeFailures = Metric.counter(
        "write_failures", named: "device_write_failures", labels: labels, help: "Frames the clone failed to take.")
    public static let delivery = [passed, delayed, cancelled, writeFailures]

    /// Pass-through delay, from the panel frame's kernel timestamp to the clone's frame:
    /// percentiles of the recent frames for `status` (one kiosk, now), and every frame in
    /// the histogram below for the exposition (a fleet adds histograms, not percentiles).
    public static let delayP50 = Metric.gauge(
        "delay_us_p50", named: "device_passthrough_delay_p50", unit: .microseconds, labels: labels, exposed: false,
        help: "Median pass-through delay over the last delay_frames frames.")
    public static let delayP99 = Metric.gauge(
        "delay_us_p99", named: "device_passthrough_delay_p99", unit: .microseconds, labels: labels, exposed: false,
        help: "99th percentile pass-through delay over the last delay_frames frames.")
    public static let delayFrames = Metric.gauge(
        "delay_frames", named: "device_passthrough_delay_frames", labels: labels, exposed: false,
        help: "Frames the delay percentiles are over.")
    public static let delay = [delayP50, delayP99, delayFrames]
    /// Every frame's pass-through delay since the panel was attached (`status`:
    /// `delay_histogram`, µs).
    public static let delayHistogram = MetricFamily(
        "device_passthrough_delay", .histogram, unit: .microseconds, labels: labels,
        help: "Pass-through delay of each frame, from the panel's kernel timestamp to the clone's frame.")
    /// 0.25 ms to 32 ms, doubling: a frame takes tens of µs when nothing holds it back, a
    /// held contact is released within a gesture's decision time.
    public static let delayBounds: [Double] = [250, 500, 1000, 2000, 4000, 8000, 16000, 32000]
}

/// The daemon's own (`status`'s head and `config`).
public enum DaemonMetrics {
    public static let buildInfo = MetricFamily("build_info", .gauge, labels: ["version"], help: "Always 1: the version running.")
    public static let configInfo = MetricFamily("config_info", .gauge, labels: ["path"], help: "Always 1: the config file in force.")
    public static let startTime = MetricFamily(
        "start_time", .gauge, unit: .seconds, help: "When the daemon started, seconds since the Unix epoch.")
    public static let unusableDevices = MetricFamily(
        "unusable_devices", .gauge, help: "Touchscreens found but not opened (status says why).")
    public static let reloads = MetricFamily(
        "config_reloads", .counter, labels: ["result"], help: "Config reloads since start, by result (ok, failed).")
    /// `status.config.reloads`.
    public static let reloadsTaken = Metric("ok", reloads, labelValues: ["ok"])
    public static let reloadsRefused = Metric("failed", reloads, labelValues: ["failed"])
    public static let reloadCounts = [reloadsTaken, reloadsRefused]
    public static let lastReloadTime = MetricFamily(
        "config_last_reload_timestamp", .gauge, unit: .seconds,
        help: "When the config in force was loaded (at start, or by the last reload taken), seconds since the Unix epoch.")
    public static let lastReloadAttempt = MetricFamily(
        "config_last_reload_attempt_timestamp", .gauge, unit: .seconds,
        help: "When a reload was last asked for, taken or refused (the start until one is), seconds since the Unix epoch.")
    /// `[daemon] metrics_interval`: how often `metrics_file` is written, so a rule can tell
    /// a file nobody writes any more (a killed daemon's) from a fresh one.
    public static let metricsInterval = MetricFamily(
        "metrics_interval", .gauge, unit: .seconds, help: "How often the metrics file is written ([daemon] metrics_interval).")
    public static let lastReloadSuccess = MetricFamily(
        "config_last_reload_success", .gauge, help: "1 when the last reload was taken, 0 when it was refused.")
}

/// The idle rule's (`status.idle`, with `[idle]` only): whether the screen is idle now, and
/// how often it went idle and was woken.
public enum IdleMetrics {
    public static let idle = Metric.gauge("idle", help: "1 while the screen is idle ([idle]: no touch for after), 0 while active.")
    public static let sleeps = Metric.counter("sleeps", named: "idle_sleeps", help: "Times the screen went idle since start.")
    public static let wakes = Metric.counter(
        "wakes", named: "idle_wakes", help: "Times a touch woke the idle screen since start (each such touch consumed).")

    public static let all = [idle, sleeps, wakes]
}
