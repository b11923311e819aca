import GestureConfig
import GestureControl

/// The status of a kiosk some hours into its day, as the daemon would fill it: the shipped
/// `config/gestures.toml` (its gestures, every gesture and state counted), two
/// grabbed panels with touch delivery and health counts, and the dispatcher's, the control
/// server's and the refusals' counters. What one metrics render (`MetricsText.render`, every
/// `metrics_interval` and on each `gesturectl metrics`) has to write; views and pending
/// gestures are not metrics, and stay empty.
public enum KioskStatus {
    /// `config/gestures.toml` of this repository (derived from this file's location).
    public static var shippedConfig: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Benchmarks/BenchScenarios/KioskStatus.swift
        return parts.joined(separator: "/") + "/config/gestures.toml"
    }

    public static func make(config path: String = shippedConfig) throws -> DaemonStatus {
        let model = try ConfigLoader.load(path: path).model
        var status = DaemonStatus()
        status.version = "0.1.0"
        status.pid = 812
        status.uptime = 30_600
        status.startTime = 1_764_136_800.125
        status.config = ConfigStatus(path: "/etc/gestured/gestures.toml", files: ["/etc/gestured/gestures.toml"])
        status.config.reloads[DaemonMetrics.reloadsTaken] = 2
        status.devices = [panel("ILITEK ILITEK-TP", "/dev/input/event5", seed: 1), panel("ILITEK ILITEK-TP", "/dev/input/event7", seed: 2)]
        status.gestures = model.gestures.indices.map { i in
            let spec = model.gestures[i]
            var gesture = GestureStatus(
                name: spec.name, type: spec.type.rawValue, view: model.views[spec.view].name, state: "possible",
                continuous: spec.type.isContinuous)
            gesture.values[GestureMetrics.count] = Double(40 + 17 * i)
            for (k, metric) in gesture.events.metrics.enumerated() { gesture.events[metric] = Double((40 + 17 * i) * (k + 1)) }
            return gesture
        }
        status.dispatcher[DispatcherMetrics.commandsStarted] = 57
        status.dispatcher[DispatcherMetrics.cooldownSkips] = 3
        status.dispatcher[DispatcherMetrics.socketMessagesSent] = 48_213
        status.control = ControlStatus(path: "/run/gestured/gestured.sock")
        status.control.values[ControlMetrics.connections] = 1
        status.refused[RefusalMetrics.connections] = 0
        return status
    }

    /// A grabbed panel with its counts.
    private static func panel(_ name: String, _ path: String, seed: Double) -> DeviceStatus {
        var panel = DeviceStatus(name: name, path: path, calibration: "none")
        panel.values[DeviceMetrics.contacts] = seed - 1
        panel.input[DeviceMetrics.frames] = 1_204_332 * seed
        panel.lastFrame = 30_412.5 + seed
        var delivery = DeliveryStatus(grabbed: true, grab: "taken", virtual: "/dev/input/event1\(Int(seed) + 1)", cancel: "release")
        delivery.counts[DeviceMetrics.passed] = 9_120 * seed
        delivery.counts[DeviceMetrics.delayed] = 310 * seed
        delivery.counts[DeviceMetrics.cancelled] = 12 * seed
        var delay = MetricValues(DeviceMetrics.delay)
        delay[DeviceMetrics.delayP50] = 180 * seed
        delay[DeviceMetrics.delayP99] = 1_450 * seed
        delay[DeviceMetrics.delayFrames] = 4_096
        delivery.delay = delay
        panel.delivery = delivery
        for (k, metric) in DeviceMetrics.filteredRules.enumerated() { panel.filtered[metric] = Double(k) * seed }
        return panel
    }
}
