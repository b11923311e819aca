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
                // Every series under its own family's header: grouped.
                let name = line.prefix { $0 != "{" && $0 != " " }
                #expect(name == current, "\(line) outside its family")
            }
        }
        #expect(text.hasSuffix("\n"))
        #expect(seen.count == Set(MetricsText.samples(fullStatus()).map(\.family.exposedName)).count)
    }

    @Test func valuesLabelsAndUnits() {
        let device = #"{device="ELAN \"Touch\"",path="/dev/input/event1"}"#
        for line in [
            #"gestured_build_info{version="0.1.0"} 1"#,
            #"gestured_config_info{path="/etc/gestured/gestures.toml"} 1"#,
            "gestured_start_time_seconds 1764000000.25",
            // The reload's time as a timestamp: the start plus its uptime.
            "gestured_config_last_reload_timestamp_seconds 1764000060.25",
            "gestured_config_last_reload_success 0",
            #"gestured_config_reloads_total{result="ok"} 2"#, #"gestured_config_reloads_total{result="failed"} 1"#,
            "gestured_device_contacts\(device) 2", "gestured_device_grabbed\(device) 1",
            "gestured_device_contacts_passed_total\(device) 10",
            "gestured_device_frames_total\(device) 120", "gestured_device_last_frame_timestamp_seconds\(device) 1764000064.75",
            // No frame yet: the start.
            #"gestured_device_last_frame_timestamp_seconds{device="Other",path="/dev/input/event2"} 1764000000.25"#,
            // Microseconds in status, seconds here.
            "gestured_device_passthrough_delay_p99_seconds\(device) 0.0025",
            #"gestured_device_grabbed{device="Other",path="/dev/input/event2"} 0"#,
            #"gestured_gesture_recognitions_total{gesture="map_zoom"} 7"#,
            "gestured_commands_started_total 5", "gestured_running_children 1", "gestured_control_subscribers 1",
            #"gestured_refused_total{reason="connections"} 4"#, #"gestured_refused_total{reason="slots_clamped"} 0"#,
            "gestured_unusable_devices 1",
            // The health stage's view of the panel: the touch's time as a timestamp, the
            // frame rate, the spots masked now, and the state as one series per state.
            "gestured_device_last_touch_timestamp_seconds\(device) 1764000063.5",
            #"gestured_device_last_touch_timestamp_seconds{device="Other",path="/dev/input/event2"} 1764000000.25"#,
            "gestured_device_frames_per_second\(device) 118", "gestured_device_masked_spots\(device) 1",
            #"gestured_device_health{device="ELAN \"Touch\"",path="/dev/input/event1",state="noisy"} 1"#,
            #"gestured_device_health{device="ELAN \"Touch\"",path="/dev/input/event1",state="ok"} 0"#,
            #"gestured_device_health{device="Other",path="/dev/input/event2",state="ok"} 1"#,
        ] {
            #expect(text.contains("\n" + line + "\n"), "\(line)")
        }
        // A panel without touch delivery has no delivery series.
        #expect(!text.contains(#"gestured_device_contacts_passed_total{device="Other""#))
    }

    @Test func labelValuesAreEscaped() {
        #expect(MetricsText.escape("a\\b\"c\nd\r\ne", quotes: true) == #"a\\b\"c\nd"# + "\r" + #"\ne"#)
        #expect(MetricsText.escape("say \"hi\"\n", quotes: false) == #"say "hi"\n"#)
    }

    /// Prometheus' own parser and linter (`promtool check metrics`, Debian's `prometheus`)
    /// accepts the exposition. Where promtool is missing the test says so and passes,
    /// except under CI, which installs it (`make deps`).
    @Test func promtoolAcceptsTheExposition() throws {
        let candidates: [String] = ["/usr/bin/promtool", "/usr/local/bin/promtool"]
        let promtool = candidates.first { access($0, X_OK) == 0 }
        guard let promtool else {
            let ci = ProcessEnvironment.current()["CI"] == "true"
            #expect(!ci, "promtool is missing under CI: install Debian's prometheus (make deps)")
            if !ci { print("promtool not found: the exposition was not checked by Prometheus' parser (apt-get install prometheus)") }
            return
        }
        let input = "/tmp/gestured-metrics-\(getpid()).prom"
        let report = input + ".out"
        try WholeFile.write(text, to: input)
        defer {
            unlink(input)
            unlink(report)
        }
        let status = system("'\(promtool)' check metrics < '\(input)' > '\(report)' 2>&1")
        let output = String(decoding: try WholeFile.read(report, maximumSize: 1 << 20), as: UTF8.self)
        #expect(status == 0 && output.isEmpty, "promtool check metrics: exit \(status)\n\(output)\n\(text)")
    }
}
