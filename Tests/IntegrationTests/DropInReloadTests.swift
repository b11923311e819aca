import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real daemon with drop-ins beside its config (`gestures.toml` reads `gestures.d`):
/// a reload takes added, changed and removed drop-ins, refuses a broken one naming its
/// file while the running gestures stay, and `status` lists the files in force.
@Suite struct DropInReloadTests {
    @Test func reloadTakesAddedChangedAndRemovedDropInsAndRefusesABrokenOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let dropIns = dir.file("gestures.d")
        try writeText(TestConfig.tapAndPan(), to: config)
        try #require(mkdir(dropIns, 0o755) == 0)
        let site = dropIns + "/50-site.toml"
        try writeText("[gesture.hold]\ntype = \"long-press\"\n", to: site)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        func gestures() throws -> [String] {
            try daemon.status()["gestures"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        }
        func files() throws -> [String] {
            try daemon.status()["config"]?["files"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        func reload() throws -> (status: Int32, stdout: String, stderr: String) {
            try runTool(Binary.gesturectl, ["reload", "--socket", daemon.socket], dir: dir)
        }
        #expect(try gestures() == ["tap", "drag", "hold"])
        #expect(try files() == [config, site])

        // Added: a second drop-in, sorted before the first.
        let early = dropIns + "/10-early.toml"
        try writeText("[gesture.swipe]\ntype = \"swipe\"\n", to: early)
        #expect(try reload().status == 0)
        #expect(try gestures() == ["tap", "drag", "swipe", "hold"])
        #expect(try files() == [config, early, site])

        // Changed: the site drop-in makes the main file's tap a long press instead.
        try writeText("[gesture.tap]\ntype = \"long-press\"\n", to: site)
        #expect(try reload().status == 0)
        #expect(try gestures() == ["tap", "drag", "swipe"])
        #expect(try daemon.status()["gestures"]?.arrayValue?.first?["type"] == .string("long-press"))

        // Broken: refused with the file named; the running config stays.
        try writeText("[gesture.tap]\ntaps = \"two\"\n", to: early)
        let refused = try reload()
        #expect(refused.status != 0 && refused.stderr.contains("\(early):2:1: error: gesture.tap.taps"), "\(refused)")
        #expect(try gestures() == ["tap", "drag", "swipe"])
        #expect(try files() == [config, early, site])
        let text = try runTool(Binary.gesturectl, ["status", "--socket", daemon.socket], dir: dir)
        #expect(text.stdout.contains("drop-in") && text.stdout.contains(site), "\(text.stdout)")

        // Removed: both drop-ins go, the main file alone is in force.
        try #require(unlink(early) == 0 && unlink(site) == 0)
        #expect(try reload().status == 0)
        #expect(try gestures() == ["tap", "drag"])
        #expect(try files() == [config])
        try daemon.stop()
    }

    /// A drop-in that turns the main file's long press into a tap breaks the main file's
    /// long-press keys: a reload is refused and a start fails, both at the drop-in's line
    /// (naming the main file's key), and the start says to fix the drop-in.
    @Test func aRefusedReloadAndStartNameTheDropInThatCausedIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let main = TestConfig.tapAndPan() + "[gesture.hold]\ntype = \"long-press\"\nmin_duration = \"2s\"\n"
        try writeText(main, to: config)
        let minDurationLine = main.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("min_duration") }! + 1
        try #require(mkdir(dir.file("gestures.d"), 0o755) == 0)
        let site = dir.file("gestures.d/50-site.toml")
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        try writeText("[gesture.hold]\ntype = \"tap\"\n", to: site)
        let expected =
            "\(site):2:1: error: gesture.hold.type: set here, replacing the value at \(config):\(minDurationLine - 1):1, "
            + "it breaks gesture.hold.min_duration at \(config):\(minDurationLine):1: "
        let refused = try runTool(Binary.gesturectl, ["reload", "--socket", daemon.socket], dir: dir)
        #expect(refused.status != 0 && refused.stderr.contains(expected), "\(refused)")
        try daemon.stop()

        let start = try runTool(Binary.gestured, ["--config", config, "--socket", dir.file("s.sock")], dir: dir)
        #expect(start.status == 1 && start.stderr.contains(expected), "\(start)")
        #expect(start.stderr.contains("gestured: not started; fix \(site) ("), "\(start)")
    }
}
