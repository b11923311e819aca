import GestureControl
import TestSupport
import Testing

/// The real `gestured` replaying the shared ghost-burst recording with the ghost recipe:
/// the panel turns noisy once, subscribers get the line, the log says why, and `status`
/// shows the panel's health and what it filtered.
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

            """, to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.ghosts)
        let subscriber = try daemon.client()
        _ = try subscriber.request("subscribe")
        _ = try daemon.request("replay-start")
        var health: JSONValue?
        while health == nil, let line = try subscriber.readLine() {
            let value = try JSONParser.parse(line[...])
            if value["health"] != nil { health = value }
            #expect(value["gesture"] == nil, "no ghost reaches a gesture: \(value)")
        }
        let noisy = try #require(health)
        #expect(noisy["health"]?.stringValue == "noisy")
        #expect(noisy["device"]?.intValue == 0)
        #expect(noisy["reason"]?.stringValue == "31 contacts filtered within a minute (more than 30)")
        #expect(eventually { daemon.log.contains("health ok -> noisy: 31 contacts filtered within a minute") }, "\(daemon.log)")
        let panel = try daemon.request("status")["devices"]?.arrayValue?.first
        #expect(panel?["health"]?.stringValue == "noisy")
        // The daemon replays in the recording's own time: by now at least the 31 that made it noisy.
        #expect(panel?["filtered"]?["ghost"]?.intValue ?? 0 >= 31)
    }
}
