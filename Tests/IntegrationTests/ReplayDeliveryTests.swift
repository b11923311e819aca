import GestureControl
import TestSupport
import Testing

/// `gesturectl replay --delivery`: what the application would see, one line per change of a
/// touch, beside the gesture events.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct ReplayDeliveryTests {
    /// Nine fast taps on a double-tap corner covering the screen: four double taps whose
    /// touches the application sees cancelled, then a ninth tap delivered 350 ms late.
    @Test func doubleTapsAsTheApplicationSeesThem() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText("[screen]\nwidth = 800\nheight = 480\n\n[gesture.wake]\ntype = \"tap\"\ntaps = 2\n", to: config)
        let run = try runTool(Binary.gesturectl, ["replay", "--json", "--delivery", "--config", config, Recording.taps], dir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)[...]) }
        let touches = lines.filter { $0["touch"] != nil }
        #expect(lines.filter { $0["gesture"]?.stringValue == "wake" }.count == 4)
        #expect(touches.filter { $0["delivery"]?.stringValue == "began" }.count == 9)
        #expect(touches.filter { $0["delivery"]?.stringValue == "cancelled" }.count == 8)
        let last = try #require(touches.last)
        #expect(last["delivery"]?.stringValue == "ended")
        #expect(last["delay"]?.doubleValue == 0.35)
        #expect(last["view"]?.stringValue == "screen")
        // Each cancel comes right after the recognition that caused it, at its time.
        let firstWake = try #require(lines.firstIndex { $0["gesture"] != nil })
        #expect(lines[firstWake + 1]["delivery"]?.stringValue == "cancelled")
        #expect(lines[firstWake + 1]["t"]?.doubleValue == lines[firstWake]["t"]?.doubleValue)

        // Without --delivery, only the gesture events.
        let plain = try runTool(Binary.gesturectl, ["replay", "--json", "--config", config, Recording.taps], dir: dir)
        #expect(!plain.stdout.contains("\"touch\""))
        // The readable form says the same.
        let text = try runTool(Binary.gesturectl, ["replay", "--delivery", "--config", config, Recording.taps], dir: dir)
        #expect(text.stdout.contains("app touch 8 ended  delay=0.35 view=screen"), "\(text.stdout)")
    }

    /// The ghost-touch recipe (docs/CONFIG.md, "A panel with ghost touches") in the replayed
    /// pipeline: the application gets none of the panel's ghosts, where without it it gets
    /// each as a tap.
    @Test func theGhostRecipeKeepsEveryGhostFromTheApplication() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let gestures = "[screen]\nwidth = 1920\nheight = 1080\n\n[gesture.tap]\ntype = \"tap\"\n"
        let recipe = """
            [[device]]

            [device.health]
            min_contact = "60ms"
            jump = "40mm"
            noisy_above = 30

            """
        let bare = dir.file("bare.toml")
        try writeText(gestures, to: bare)
        let guarded = dir.file("guarded.toml")
        try writeText(gestures + "\n" + recipe, to: guarded)
        func delivered(_ config: String) throws -> (began: Int, taps: Int) {
            let run = try runTool(Binary.gesturectl, ["replay", "--json", "--delivery", "--config", config, Recording.ghosts], dir: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let lines = try run.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)[...]) }
            return (
                lines.filter { $0["delivery"]?.stringValue == "began" }.count,
                lines.filter { $0["gesture"]?.stringValue == "tap" }.count
            )
        }
        let before = try delivered(bare)
        #expect(before.began > 900, "the recording's ghosts reach the application without the recipe")
        #expect(before.taps > 0)
        let after = try delivered(guarded)
        #expect(after.began == 0)
        #expect(after.taps == 0)

        // replay says what it filtered and why: each ghost once, never shown.
        let run = try runTool(Binary.gesturectl, ["replay", "--json", "--config", guarded, Recording.ghosts], dir: dir)
        let filtered = try run.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)[...]) }
            .filter { $0["filtered"] != nil }
        #expect(filtered.count == 947)
        #expect(filtered.allSatisfy { $0["rule"]?.stringValue == "ghost" && $0["shown"]?.boolValue == false })
        #expect(Set(filtered.compactMap { $0["filtered"]?.doubleValue }).count == filtered.count)
        let text = try runTool(Binary.gesturectl, ["replay", "--config", guarded, Recording.ghosts], dir: dir)
        #expect(text.stdout.contains("    0.032  filtered touch 0 ghost  shown=no x=835.1 y=663.2"), "\(text.stdout.prefix(300))")
        // ... and when the panel turned noisy, as subscribers get it: in time order, after
        // the frame of the 31st ghost (whose burst filtered more at the same time).
        let lines = try run.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)[...]) }
        let noisy = try #require(lines.firstIndex { $0["health"] != nil })
        #expect(lines[noisy]["health"] == .string("noisy"))
        #expect(lines[noisy]["reason"] == .string("31 contacts filtered within a minute (more than 30)"))
        let at = try #require(lines[noisy]["t"]?.doubleValue)
        let ghostsBefore = lines[..<noisy].filter { $0["filtered"] != nil }
        #expect(ghostsBefore.count >= 31 && ghostsBefore.allSatisfy { ($0["t"]?.doubleValue ?? .infinity) <= at })
        #expect(lines[noisy...].allSatisfy { ($0["t"]?.doubleValue ?? 0) >= at })
        #expect(text.stdout.contains("    0.672  device 0 health noisy: 31 contacts filtered within a minute (more than 30)\n"))
        // Without rules, nothing is filtered.
        let plain = try runTool(Binary.gesturectl, ["replay", "--json", "--config", bare, Recording.ghosts], dir: dir)
        #expect(!plain.stdout.contains("\"filtered\""))
    }
}
