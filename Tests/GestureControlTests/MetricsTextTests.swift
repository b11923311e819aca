import LinuxSystem
import Testing

@testable import GestureControl

#if canImport(Glibc)
import Glibc
#endif

@Suite struct MetricsTextTests {
    let text = MetricsText.render(fullStatus())

    @Test func familiesAreGroupedWithHelpAndTypeOnce() {
        let lines = text.split(separator: "\n")
        var seen: [Substring] = []
        var current: Substring = ""
        for line in lines {
            if line.hasPrefix("# HELP ") {
                current = line.split(separator: " ")[2]
                #expect(!seen.contains(current), "\(current) described twice")
                seen.append(current)
            } else if line.hasPrefix("# TYPE ") {
                #expect(line.split(separator: " ")[2] == current)
            } else {
                // Every series under its own family's header: grouped (a histogram's
                // buckets, sum and count too).
                let name = line.prefix { $0 != "{" && $0 != " " }
                #expect(["", "_bucket", "_sum", "_count"].contains { name == current + $0 }, "\(line) outside its family")
            }
        }
        #expect(text.hasSuffix("\n"))
        #expect(seen.count == Set(MetricsText.samples(fullStatus()).map(\.family.exposedName)).count)
    }

    @Test func valuesLabelsAndUnits() {
        let device = #"{device="ELAN \"Touch\"",id_path="pci-0000:00:14.0-usb-0:4:1.0"}"#
        let other = #"{device="Other",id_path="/dev/input/event2"}"#
        for line in [
            #"gestured_build_info{version="0.1.0"} 1"#,
            #"gestured_config_info{path="/etc/gestured/gestures.toml"} 1"#,
            "gestured_start_time_seconds 1764000000.25",
            // The config in force was loaded by the reload taken at 30.5 s; the last
            // attempt, at 60 s, was refused.
            "gestured_config_last_reload_timestamp_seconds 1764000030.75",
            "gestured_config_last_reload_attempt_timestamp_seconds 1764000060.25",
            "gestured_config_last_reload_success 0", "gestured_metrics_interval_seconds 15",
            #"gestured_config_reloads_total{result="ok"} 2"#, #"gestured_config_reloads_total{result="failed"} 1"#,
            // The device node only in the info series: the others keep their labels at a replug.
            #"gestured_device_info{device="ELAN \"Touch\"",id_path="pci-0000:00:14.0-usb-0:4:1.0",path="/dev/input/event1"} 1"#,
            // Without udev's ID_PATH (a replay), the node stands in.
            #"gestured_device_info{device="Other",id_path="/dev/input/event2",path="/dev/input/event2"} 1"#,
            "gestured_device_contacts\(device) 2", "gestured_device_grabbed\(device) 1",
            "gestured_device_contacts_passed_total\(device) 10",
            "gestured_device_frames_total\(device) 120", "gestured_device_last_frame_timestamp_seconds\(device) 1764000064.75",
            // No frame yet: the start.
            "gestured_device_last_frame_timestamp_seconds\(other) 1764000000.25",
            // The delay as a histogram: µs in status, seconds here, cumulative buckets.
            #"gestured_device_passthrough_delay_seconds_bucket{device="ELAN \"Touch\"",id_path="pci-0000:00:14.0-usb-0:4:1.0",le="0.00025"} 2"#,
            #"gestured_device_passthrough_delay_seconds_bucket{device="ELAN \"Touch\"",id_path="pci-0000:00:14.0-usb-0:4:1.0",le="0.001"} 3"#,
            #"gestured_device_passthrough_delay_seconds_bucket{device="ELAN \"Touch\"",id_path="pci-0000:00:14.0-usb-0:4:1.0",le="0.032"} 4"#,
            #"gestured_device_passthrough_delay_seconds_bucket{device="ELAN \"Touch\"",id_path="pci-0000:00:14.0-usb-0:4:1.0",le="+Inf"} 5"#,
            "gestured_device_passthrough_delay_seconds_sum\(device) 0.0437",
            "gestured_device_passthrough_delay_seconds_count\(device) 5",
            #"gestured_gesture_recognitions_total{gesture="map_zoom"} 7"#,
            "gestured_commands_started_total 5", "gestured_running_children 1", "gestured_control_subscribers 1",
            #"gestured_refused_total{reason="connections"} 4"#, #"gestured_refused_total{reason="slots_clamped"} 0"#,
            "gestured_unusable_devices 1",
            // The health stage's view of the panel: the touch's time as a timestamp, the
            // spots masked now, and the state as one series per state.
            "gestured_device_last_touch_timestamp_seconds\(device) 1764000063.5",
            "gestured_device_last_touch_timestamp_seconds\(other) 1764000000.25",
            "gestured_device_masked_spots\(device) 1",
            #"gestured_device_health{device="ELAN \"Touch\"",id_path="pci-0000:00:14.0-usb-0:4:1.0",state="noisy"} 1"#,
            #"gestured_device_health{device="ELAN \"Touch\"",id_path="pci-0000:00:14.0-usb-0:4:1.0",state="ok"} 0"#,
            #"gestured_device_health{device="Other",id_path="/dev/input/event2",state="ok"} 1"#,
        ] {
            #expect(text.contains("\n" + line + "\n"), "\(line)")
        }
        // A panel without touch delivery has no delivery series and is never grabbed.
        #expect(!text.contains(#"gestured_device_contacts_passed_total{device="Other""#))
        #expect(!text.contains(#"gestured_device_grabbed{device="Other""#))
        // Rates and percentiles over the daemon's own window are for status only: a fleet
        // takes rate() of the frame counter and quantiles of the histogram.
        for name in ["gestured_device_frames_per_second", "gestured_device_passthrough_delay_p99_seconds"] {
            #expect(!text.contains(name), "\(name)")
        }
        for line in text.split(separator: "\n") where line.contains("/dev/input/event1") {
            #expect(line.hasPrefix("gestured_device_info{"), "\(line)")
        }
    }

    /// A panel whose passthrough cannot grab (a replay) says so with grabbed 0.
    @Test func grabbedOnlyForPassthroughPanels() {
        var status = DaemonStatus()
        var replayed = DeviceStatus(name: "R", path: "/tmp/r.evemu", calibration: "none")
        replayed.grabImpossible = "not possible: the input is a recording, not a device"
        status.devices = [replayed]
        #expect(MetricsText.render(status).contains(#"gestured_device_grabbed{device="R",id_path="/tmp/r.evemu"} 0"#))
    }

    /// The daemon's renderer keeps its buffers: a render after another, of another status
    /// in between too, is the same text as a first one.
    @Test func aReusedRendererRendersAfresh() {
        let renderer = MetricsRenderer()
        #expect(String(decoding: renderer.render(fullStatus()), as: UTF8.self) == text)
        var other = DaemonStatus()
        other.devices = [DeviceStatus(name: "R", path: "/tmp/r.evemu", calibration: "none")]
        let otherText = String(decoding: renderer.render(other), as: UTF8.self)
        #expect(otherText == MetricsText.render(other))
        #expect(!otherText.contains("ELAN"))
        #expect(String(decoding: renderer.render(fullStatus()), as: UTF8.self) == text)
    }

    @Test func labelValuesAreEscaped() {
        #expect(MetricsText.escape("a\\b\"c\nd\r\ne", quotes: true) == #"a\\b\"c\nd"# + "\r" + #"\ne"#)
        #expect(MetricsText.escape("say \"hi\"\n", quotes: false) == #"say "hi"\n"#)
    }

    /// Prometheus' own parser and linter (`promtool check metrics`) accepts the exposition.
    @Test func promtoolAcceptsTheExposition() throws {
        guard let promtool = Promtool.path() else { return }
        let (status, output) = try Promtool.run(promtool, "check metrics", input: text)
        #expect(status == 0 && output.isEmpty, "promtool check metrics: exit \(status)\n\(output)\n\(text)")
    }
}
