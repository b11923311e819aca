import Testing

@testable import GestureControl

/// A status with every section and optional part filled, as a daemon with a grabbed panel,
/// a refused reload, a replay and a pending recognition would report it.
func fullStatus() -> DaemonStatus {
    var status = DaemonStatus()
    status.version = "0.1.0"
    status.pid = 42
    status.uptime = 65.5
    status.startTime = 1_764_000_000.25
    status.config = ConfigStatus(path: "/etc/gestured/gestures.toml", lastReload: ReloadStatus(at: 60, error: "g.toml:3:7: \"x\"\nsecond"))
    status.config.reloads[DaemonMetrics.reloadsTaken] = 2
    status.config.reloads[DaemonMetrics.reloadsRefused] = 1
    status.config.loadedAt = 30.5
    status.config.metricsInterval = 15
    var panel = DeviceStatus(
        name: "ELAN \"Touch\"", path: "/dev/input/event1", idPath: "pci-0000:00:14.0-usb-0:4:1.0", calibration: "udev")
    panel.values[DeviceMetrics.contacts] = 2
    var delivery = DeliveryStatus(grabbed: true, grab: "taken", virtual: "/dev/input/event9", cancel: "release")
    delivery.counts[DeviceMetrics.passed] = 10
    delivery.counts[DeviceMetrics.writeFailures] = 1
    var delay = MetricValues(DeviceMetrics.delay)
    delay[DeviceMetrics.delayP50] = 150
    delay[DeviceMetrics.delayP99] = 2500
    delay[DeviceMetrics.delayFrames] = 4096
    delivery.delay = delay
    var histogram = Histogram(bounds: DeviceMetrics.delayBounds)
    for delay in [120.0, 180, 900, 2500, 40000] { histogram.record(delay) }
    delivery.delayHistogram = histogram
    delivery.lastWriteError = "write: No space left on device"
    panel.delivery = delivery
    panel.input[DeviceMetrics.frames] = 120
    panel.lastFrame = 64.5
    panel.health = "noisy"
    panel.filtered[DeviceMetrics.filteredRules[4]] = 31
    panel.filtered[DeviceMetrics.filteredRules[6]] = 1
    panel.lastTouch = 63.25
    panel.activity[DeviceMetrics.framesPerSecond] = 118
    panel.maskedSpots = [MaskedSpotStatus(x: 412.5, y: 980, since: 50.5, until: 110.5)]
    panel.detail = DeviceDetail(vendor: 1267, product: 268, mapping: "device[0]", calibrationMatrix: [1, 0, 0, 0, 1, 0])
    status.devices = [panel, DeviceStatus(name: "Other", path: "/dev/input/event2", calibration: "none")]
    status.unusableDevices = [UnusableDevice(path: "/dev/input/event3", name: "eGalax", error: "permission denied\nadd the user to input")]
    status.engine[EngineMetrics.droppedContacts] = 3
    status.replay = ReplayStatus(path: "/tmp/r.evemu", state: "playing")
    status.views = [
        ViewStatus(name: "screen", parent: nil, frame: [0, 0, 1920, 1080]),
        ViewStatus(name: "map", parent: "screen", frame: [480, 0, 1440, 1080]),
    ]
    var zoom = GestureStatus(name: "map_zoom", type: "pinch", view: "map", state: "pending", continuous: true)
    zoom.values[GestureMetrics.count] = 7
    zoom.events[zoom.events.metrics[0]] = 7
    status.gestures = [zoom, GestureStatus(name: "wake", type: "tap", view: "screen", state: "possible", continuous: false)]
    status.pending = [PendingStatus(gesture: "map_zoom", waitingFor: ["map_pan"], milliseconds: 12)]
    status.dispatcher[DispatcherMetrics.commandsStarted] = 5
    status.dispatcher[DispatcherMetrics.runningChildren] = 1
    status.control = ControlStatus(path: "/run/gestured/gestured.sock")
    status.control.values[ControlMetrics.subscribers] = 1
    status.refused[RefusalMetrics.connections] = 4
    let client = RuntimeStatus.Owner(kind: "client", connection: 3, pid: 812, uid: 1000)
    status.views[1].enabled = false
    status.gestures[1].enabled = false
    status.runtime = RuntimeStatus(
        mode: RuntimeStatus.Mode(
            name: "maintenance", owner: RuntimeStatus.Owner(kind: "action", gesture: "secret"), keep: false, since: 60, until: 120),
        changes: [
            RuntimeStatus.Change(kind: "gesture", name: "wake", enabled: false, frame: nil, owner: client, keep: true, since: 61.5),
            RuntimeStatus.Change(
                kind: "view", name: "map", enabled: nil, frame: ["50%", "0px", "50%", "100%"], owner: client, keep: false, since: 62),
        ])
    status.keyboard = KeyboardStatus(
        name: "gestured keyboard", path: "/dev/input/event9", keys: ["KEY_R", "KEY_LEFTCTRL", "KEY_F5"], down: ["KEY_LEFTCTRL"],
        frames: 12, writeFailures: 1, watchdogReleases: 1)
    status.idle = IdleStatus(state: "idle", since: 63.25, after: 300)
    status.idle?.values[IdleMetrics.idle] = 1
    status.idle?.values[IdleMetrics.sleeps] = 3
    status.idle?.values[IdleMetrics.wakes] = 2
    return status
}

@Suite struct StatusModelTests {
    /// `status` as gestured on main wrote it (replay of a recording, then a reload): the
    /// model reads it and writes the same bytes, its new members added at the end of their
    /// objects.
    @Test func jsonStaysByteCompatible() throws {
        let before =
            #"{"version":"0.1.0","pid":22983,"uptime_s":0.454000,"config":{"path":"config/gestures.toml","last_reload":{"at_s":0.416000,"ok":true}},"#
            + #""devices":[{"name":"Atmel maXTouch Touchscreen","path":"/r/atmel.evemu","contacts":0,"calibration":"none","grabbed":false}],"#
            + #""unusable_devices":[],"dropped_contacts":0,"engine_bugs":0,"replay":{"path":"/r/atmel.evemu","state":"finished"},"#
            + #""views":[{"name":"screen","parent":null,"frame":[0,0,1920,1080]},{"name":"map","parent":"screen","frame":[480,0,1440,1080]}],"#
            + #""gestures":[{"name":"map_zoom","type":"pinch","view":"map","state":"possible","count":1}],"pending":[],"#
            + #""dispatcher":{"commands_started":0,"commands_refused":0,"spawn_failures":0,"commands_failed":0,"commands_timed_out":0,"#
            + #""cooldown_skips":0,"socket_messages_sent":0,"socket_messages_dropped":0,"socket_failures":3,"running_children":0},"#
            + #""control":{"path":"/tmp/ctl.sock","connections":1,"subscribers":0,"dropped_subscribers":0,"evicted_connections":0},"#
            + #""refused":{"connections":0,"requests_too_large":0,"unadvertised_events":0,"commands":0,"slots_clamped":0}}"#
        let after = DaemonStatus(json: try JSONParser.parse(before)).json.text
        let added =
            before.replacing(
                #""ok":true}},"#, with: #""ok":true},"reloads":{"ok":0,"failed":0},"files":[],"loaded_at_s":0,"metrics_interval_s":0},"#,
                maxReplacements: 1
            )
            .replacing(
                #""grabbed":false}"#,
                with: #""grabbed":false,"frames":0,"syn_dropped":0,"last_frame_at_s":null,"health":"ok","#
                    + #""filtered":{"mask":0,"spot":0,"aligned":0,"far_apart":0,"ghost":0,"jump":0,"stuck":0,"edge":0,"outlier":0},"#
                    + #""last_touch_at_s":null,"frames_per_second":0,"masked_spots":[],"id_path":"/r/atmel.evemu"}"#
            )
            .replacing(#""count":1}"#, with: #""count":1,"events":{"began":0,"changed":0,"ended":0,"cancelled":0},"enabled":true}"#)
            .replacing(#"1080]}"#, with: #"1080],"enabled":true}"#)
            .dropLast() + #","start_time_s":0,"runtime":{"mode":null,"changes":[]}}"#
        #expect(after == added)
    }

    /// What the daemon writes, gesturectl reads back whole.
    @Test func jsonRoundTrip() throws {
        let status = fullStatus()
        #expect(DaemonStatus(json: try JSONParser.parse(status.json.text)) == status)
    }

    /// Counters end in `_total`, times in `_seconds`, and every family's labels are the
    /// ones its series carry.
    @Test func familiesFollowPrometheusNaming() {
        for sample in MetricsText.samples(fullStatus()) {
            let name = sample.family.exposedName
            #expect(name.hasPrefix("gestured_"))
            #expect(name.hasSuffix("_total") == (sample.family.kind == .counter), "\(name)")
            #expect(name.contains("_seconds") == (sample.family.unit != .none), "\(name)")
            // A histogram's buckets add their bound.
            #expect(sample.labels.map(\.0) == sample.family.labels + (sample.suffix == "_bucket" ? ["le"] : []), "\(name)")
        }
    }
}
