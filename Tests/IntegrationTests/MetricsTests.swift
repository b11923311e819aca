import GestureControl
import LinuxSystem
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The Prometheus exposition of a real daemon: the `metrics` command, `gesturectl
/// metrics`, and `[daemon] metrics_file` as node_exporter's textfile collector reads it.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct MetricsTests {
    /// Nine taps replayed move the tap's recognition counter; the file is rewritten at the
    /// interval, shows a refused reload at once, never leaves its temporary file, and goes
    /// at stop.
    @Test func metricsFileFollowsTheDaemon() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let prom = dir.file("gestured.prom")
        try writeText(TestConfig.tapAndPan(daemon: "metrics_file = \"\(prom)\"\nmetrics_interval = \"1s\""), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps, speed: 4)
        defer { try? daemon.stop() }

        #expect(eventually { readText(prom)?.contains("gestured_build_info{version=") == true })
        #expect(readText(prom)?.contains(#"gestured_gesture_recognitions_total{gesture="tap"} 0"#) == true)
        _ = try daemon.request(.replayStart)
        #expect(eventually { readText(prom)?.contains(#"gestured_gesture_recognitions_total{gesture="tap"} 9"#) == true })

        // The control command and gesturectl print what the file holds.
        let metrics = try #require(try daemon.request(.metrics).stringValue)
        #expect(metrics.contains(#"gestured_gesture_recognitions_total{gesture="tap"} 9"#))
        #expect(metrics.contains(#"gestured_gesture_events_total{gesture="tap",state="recognized"} 9"#))
        #expect(metrics.contains(#"gestured_gesture_events_total{gesture="drag",state="began"} 0"#))
        // Nine taps are more than nine frames from the recorded panel.
        let frames = metrics.split(separator: "\n").first { $0.hasPrefix("gestured_device_frames_total{") }
        #expect((frames?.split(separator: " ").last).flatMap { Int($0) }.map { $0 > 9 } == true, "\(metrics)")
        let run = try ChildProcess.run(Binary.gesturectl, arguments: ["metrics", "--socket", daemon.socket])
        #expect(run.status == 0)
        #expect(run.output.contains("# TYPE gestured_config_reloads_total counter\n"))

        try writeText(TestConfig.tapAndPan() + "\n[gesture.tap]\ntapz = 1\n", to: config)
        #expect(throws: ControlClientError.self) { try daemon.request(.reload) }
        let refused = readText(prom) ?? ""
        #expect(refused.contains("gestured_config_last_reload_success 0\n"), "\(refused)")
        #expect(refused.contains(#"gestured_config_reloads_total{result="failed"} 1"#))
        // The config in force is still the one loaded at the start; the attempt moved.
        let value = { (name: String) in
            refused.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { $0.split(separator: " ").last }.flatMap {
                Double($0)
            }
        }
        let start = try #require(value("gestured_start_time_seconds"))
        #expect(value("gestured_config_last_reload_timestamp_seconds") == start, "\(refused)")
        #expect(try #require(value("gestured_config_last_reload_attempt_timestamp_seconds")) > start, "\(refused)")
        #expect(value("gestured_metrics_interval_seconds") == 1)
        #expect(access(prom + ".tmp", F_OK) != 0)

        try daemon.stop()
        #expect(access(prom, F_OK) != 0, "metrics_file left behind at stop")
    }

    /// A metrics_file that cannot be written is logged with the path, and the daemon
    /// serves on.
    @Test func anUnwritableMetricsFileIsLogged() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let prom = dir.file("missing/gestured.prom")
        try writeText(TestConfig.tapAndPan(daemon: "metrics_file = \"\(prom)\"\nmetrics_interval = \"1s\""), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir)
        defer { try? daemon.stop() }
        #expect(eventually { daemon.log.contains("metrics: ") })
        #expect(daemon.log.contains(prom + ".tmp"), "\(daemon.log)")
        #expect(try daemon.status().version == GesturedVersion.current)
    }

    /// `unknown-command` names every command of the table, and each of them is answered.
    @Test func unknownCommandListsTheCommandTable() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir)
        defer { try? daemon.stop() }
        do {
            _ = try daemon.client().request(named: "fly")
            Issue.record("fly is not a command")
        } catch {
            #expect(
                "\(error)"
                    == "gestured: unknown command \"fly\"; known: status, reload, devices, subscribe, trigger, metrics, replay-start, set, mode, reset"
            )
        }
        for command in ControlCommand.allCases {
            do {
                _ = try daemon.client().request(command)
            } catch ControlClientError.daemon(let error) {
                #expect(error.code != "unknown-command", "\(command.rawValue)")
            }
        }
    }
}
