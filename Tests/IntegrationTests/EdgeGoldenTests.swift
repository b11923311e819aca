import TestSupport
import Testing

/// `gesturectl replay` on the edge-case recordings of our own (`Goldens/edges/`, made by
/// its `synth.sh` on a synthetic IR frame).
@Suite struct EdgeGoldenTests {
    static var directory: String { TestConfig.goldensDirectory + "/edges" }

    func replay(_ arguments: [String]) throws -> String {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try runTool(Binary.gesturectl, ["replay"] + arguments, dir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    /// The shipped config's staff swipe begins from the panel's last column (and from a
    /// value beyond it), where the panel's maximum used to land off the screen.
    @Test func theShippedAdminSwipeBeginsFromTheLastColumn() throws {
        let json = try replay(["--json", "--config", TestConfig.shippedPath, "\(Self.directory)/edge-swipes.evemu"])
        let began = json.split(separator: "\n").filter { $0.contains(#""gesture":"admin_menu""#) && $0.contains(#""state":"began""#) }
        #expect(began.count == 2, "\(json)")
    }
}
