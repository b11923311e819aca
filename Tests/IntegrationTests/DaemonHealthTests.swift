import GestureControl
import TestSupport
import Testing

/// The real `gestured` replaying the shared ghost-burst recording with the ghost recipe:
/// the panel turns noisy once, subscribers get the line, the log says why, its
/// `[device.on.noisy]` action runs, `monitor --touches` marks each filtered contact with
/// its rule, and `status` shows the panel's health and what it filtered.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct DaemonHealthTests {
    @Test func aNoisyPanelIsLoggedSentToSubscribersAndShownInStatus() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(
            """
            [screen]
            width = 1920
            height = 1080

            [gesture.tap]
            type = "tap"

            [[device]]

            [device.health]
            min_contact = "60ms"
            noisy_above = 30
            noisy_quiet = "3600s"

            [device.on.noisy]
            command = 'echo "$GESTURE_HEALTH $GESTURE_DEVICE_NAME|$GESTURE_REASON" > "\(dir.file("noisy.txt"))"'

            [device.on.ok]
            command = 'echo "$GESTURE_HEALTH" > "\(dir.file("ok.txt"))"'

            """, to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.ghosts)
        let subscriber = try daemon.client()
        _ = try subscriber.request(.subscribe)
        let watcher = try daemon.client()
        _ = try watcher.request(.subscribe, [("touches", .bool(true))])
        _ = try daemon.request(.replayStart)
        var health: JSONValue?
        while health == nil, let line = try subscriber.readLine() {
            let value = try JSONParser.parse(line[...])
            if value.kind == .health { health = value }
            #expect(value["gesture"] == nil, "no ghost reaches a gesture: \(value)")
        }
        let noisy = try #require(health)
        #expect(noisy["health"]?.stringValue == "noisy")
        #expect(noisy["device"]?.intValue == 0)
        #expect(noisy["reason"]?.stringValue == "31 contacts filtered within a minute (more than 30)")
        #expect(eventually { daemon.log.contains("health ok -> noisy: 31 contacts filtered within a minute") }, "\(daemon.log)")
        #expect(
            eventually { readText(dir.file("noisy.txt"))?.hasSuffix("|31 contacts filtered within a minute (more than 30)\n") == true },
            "the noisy action ran: \(readText(dir.file("noisy.txt")) ?? "nothing")")
        var filtered: [JSONValue] = []
        while filtered.count < 31, let line = try watcher.readLine() {
            let value = try JSONParser.parse(line[...])
            if value.kind == .filtered { filtered.append(value) }
        }
        #expect(filtered.count == 31)
        #expect(filtered.allSatisfy { $0["rule"] == .string("ghost") && $0["shown"] == .bool(false) && $0["device"] == .number(0) })
        let panel = try daemon.request(.status)["devices"]?.arrayValue?.first
        #expect(panel?["health"]?.stringValue == "noisy")
        // The daemon replays in the recording's own time: by now at least the 31 that made it noisy.
        #expect(panel?["filtered"]?["ghost"]?.intValue ?? 0 >= 31)
        #expect(panel?["frames_per_second"]?.doubleValue != nil && panel?["masked_spots"]?.arrayValue == [])

        // Stopping is not an hour of quiet: the panel is not reported ok, its action does not run.
        try daemon.stop()
        #expect(daemon.log.contains("stopped") && !daemon.log.contains("noisy -> ok"), "\(daemon.log)")
        #expect(readText(dir.file("ok.txt")) == nil)
    }
}
