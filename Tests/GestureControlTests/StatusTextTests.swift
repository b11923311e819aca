import GestureControl
import Testing

@Suite struct StatusTextTests {
    @Test func statusTablesShowFailuresAndCounts() throws {
        let status = try JSONParser.parse(
            """
            {"version":"0.1.0","uptime_s":65,"config":{"path":"/etc/g.toml","last_reload":{"at_s":5,"ok":false,"error":"g.toml:3:7: unknown key"}},
             "devices":[],"gestures":[{"name":"back","type":"swipe","view":"root","state":"possible","count":3}],
             "dispatcher":{"commands_started":3}}
            """)
        let text = StatusText.render(DaemonStatus(json: status))
        #expect(text.contains("uptime:      1m 5s\n"))
        #expect(text.contains("FAILED at 5s uptime, still running the previous config: g.toml:3:7: unknown key"))
        #expect(text.contains("devices: no touchscreen"))
        #expect(text.contains("  back  swipe  root  possible  3"))
        #expect(text.contains("  commands started:        3\n"))
        #expect(!text.contains("dropped contacts"))
    }

    @Test func statusShowsDroppedContacts() throws {
        let status = try JSONParser.parse(#"{"version":"0.1.0","dropped_contacts":3}"#)
        #expect(StatusText.render(DaemonStatus(json: status)).contains("dropped contacts: 3 (went down while 64 were already tracked)"))
    }

    /// A panel whose grab waits for its contacts to lift says so in the delivery table.
    @Test func statusShowsAGrabThatWaits() throws {
        let status = try JSONParser.parse(
            """
            {"version":"0.1.0","devices":[{"name":"ELAN","path":"/dev/input/event1","contacts":1,"calibration":"none",
              "grabbed":false,"grab":"waiting for 1 contact to lift","virtual":"/dev/input/event2","cancel":"release",
              "passed":0,"delayed":0,"cancelled":0}]}
            """)
        let text = StatusText.render(DaemonStatus(json: status))
        #expect(text.contains("  PATH               GRAB                           VIRTUAL  "), "\(text)")
        #expect(text.contains("  /dev/input/event1  waiting for 1 contact to lift  /dev/input/event2  release"), "\(text)")
    }

    /// Each panel's health and what its stage filtered, by rule, in the devices table.
    @Test func statusShowsEachPanelsHealth() throws {
        let status = try JSONParser.parse(
            """
            {"version":"0.1.0","devices":[{"name":"ELAN","path":"/dev/input/event1","contacts":0,"calibration":"none",
              "health":"noisy","filtered":{"ghost":31,"stuck":1}},
              {"name":"Other","path":"/dev/input/event2","contacts":0,"calibration":"none"}]}
            """)
        let text = StatusText.render(DaemonStatus(json: status))
        #expect(text.contains("none         noisy   ghost 31, stuck 1"), "\(text)")
        #expect(text.contains("none         ok      -"), "\(text)")
    }

    /// Per panel, its frame rate and how long ago a touch the stage let through was on it,
    /// and the recurring spots masked now with since when and when they are released.
    @Test func statusShowsActivityAndMaskedSpots() throws {
        let status = try JSONParser.parse(
            """
            {"version":"0.1.0","uptime_s":200,"devices":[{"name":"ELAN","path":"/dev/input/event1","contacts":0,"calibration":"none",
              "health":"ok","last_touch_at_s":188,"frames_per_second":120,
              "masked_spots":[{"x":412.4,"y":980,"since_s":140,"until_s":260}]},
              {"name":"Other","path":"/dev/input/event2","contacts":0,"calibration":"none"}]}
            """)
        let text = StatusText.render(DaemonStatus(json: status))
        #expect(text.contains("  ELAN   /dev/input/event1  0         none         ok      -         120  12s ago\n"), "\(text)")
        #expect(text.contains("  Other  /dev/input/event2  0         none         ok      -         0    never\n"), "\(text)")
        #expect(text.contains("masked spots (recurring noise)\n"), "\(text)")
        #expect(text.contains("  /dev/input/event1  412, 980  1m 0s ago  in 1m 0s"), "\(text)")
    }

    /// No spot masked: no section for it.
    @Test func noMaskedSpotsNoSection() throws {
        let status = try JSONParser.parse(#"{"version":"0.1.0","devices":[{"name":"ELAN","path":"/dev/input/event1"}]}"#)
        #expect(!StatusText.render(DaemonStatus(json: status)).contains("masked spots"))
    }

    /// The mode and each change in force, who made it, since when and whether it is kept;
    /// disabled views and gestures are marked in their tables.
    @Test func statusShowsTheRuntimeChanges() {
        let text = StatusText.render(fullStatus())
        #expect(text.contains("mode: maintenance (by action of 'secret' at 1m 0s uptime, ends at 2m 0s uptime)"), "\(text)")
        #expect(text.contains("gesture wake  disabled                pid 812 uid 1000  1m 1s  yes"), "\(text)")
        #expect(text.contains("view map      frame 50% 0px 50% 100%  pid 812 uid 1000  1m 2s  no"), "\(text)")
        #expect(text.contains("map (disabled)"), "\(text)")
        #expect(text.contains("wake (disabled)"), "\(text)")
        #expect(!StatusText.render(DaemonStatus()).contains("changes"))
    }

    @Test func statusShowsTheIdleRule() {
        #expect(StatusText.render(fullStatus()).contains("idle: idle since 1m 3s uptime (after 5m 0s; 3 sleeps, 2 wakes)"))
        #expect(!StatusText.render(DaemonStatus()).contains("idle:"))
    }
}
