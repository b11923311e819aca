import TestSupport
import Testing

/// `gesturectl replay` on the edge-case recordings of our own (`Goldens/edges/`, made by
/// its `synth.sh` on a synthetic IR frame) against checked-in logs, `--json` and
/// `--delivery --json` (regenerate with `gesturectl replay [--delivery] --json --config
/// Goldens/edges/edges.toml Goldens/edges/NAME.evemu > Goldens/edges/NAME[.delivery].jsonl`
/// after a deliberate change, and review the diff). What each shows: swipes from every edge
/// starting on the axis' extreme value (and beyond it) begin the edge pan from that edge; a
/// still bezel touch is dropped (`edge`) and never reaches the application, a bezel swipe
/// still begins the edge pan; a one-frame outlier in a drag is dropped (`outlier`) and the
/// drag goes on whole, a jump that stays splits it (`jump`).
@Suite struct EdgeGoldenTests {
    static let names = ["edge-swipes", "bezel-tap", "bezel-swipe", "outlier-drag"]
    static var directory: String { TestConfig.goldensDirectory + "/edges" }

    func replay(_ arguments: [String]) throws -> String {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try runTool(Binary.gesturectl, ["replay"] + arguments, dir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    @Test(arguments: names)
    func matchesGolden(_ name: String) throws {
        let recording = "\(Self.directory)/\(name).evemu"
        let config = "\(Self.directory)/edges.toml"
        let json = try replay(["--json", "--config", config, recording])
        #expect(json == readText("\(Self.directory)/\(name).jsonl"))
        let delivery = try replay(["--json", "--delivery", "--config", config, recording])
        #expect(delivery == readText("\(Self.directory)/\(name).delivery.jsonl"))
    }

    /// What the goldens hold, said once more where a regenerated golden could hide it.
    @Test func theGoldensShowTheEdgeCases() throws {
        func lines(_ name: String) -> [String] {
            (readText("\(Self.directory)/\(name).jsonl") ?? "").split(separator: "\n").map(String.init)
        }
        let edges = lines("edge-swipes").filter { $0.contains(#""state":"began""#) }
        #expect(edges.map { $0.contains(#""gesture":"edge""#) } == [true, true, true, true, true])
        for edge in ["right", "left", "top", "bottom", "right"].enumerated() {
            #expect(edges[edge.offset].contains(#""edge":"\#(edge.element)""#), "\(edges)")
        }
        #expect(lines("bezel-tap").filter { $0.contains(#""rule":"edge""#) }.count == 1)
        #expect(lines("bezel-tap").filter { $0.contains(#""gesture":"tap""#) }.count == 1)
        #expect(lines("bezel-swipe").contains { $0.contains(#""state":"began""#) && $0.contains(#""edge":"right""#) })
        let outlier = lines("outlier-drag")
        #expect(outlier.filter { $0.contains(#""rule":"outlier""#) }.count == 1)
        #expect(outlier.filter { $0.contains(#""rule":"jump""#) }.count == 1)
        // The outlier's drag is one pan to its end; the jumped one is cancelled at the split.
        let drags = outlier.filter { $0.contains(#""gesture":"drag""#) && !$0.contains(#""state":"changed""#) }
        #expect(
            drags.map { $0.contains(#""state":"began""#) ? "began" : $0.contains(#""state":"ended""#) ? "ended" : "other" } == [
                "began", "ended", "began", "other",
            ])
        #expect(drags.last?.contains(#""state":"cancelled""#) == true)
    }

    /// The shipped config's staff swipe begins from the panel's last column (and from a
    /// value beyond it), where the panel's maximum used to land off the screen.
    @Test func theShippedAdminSwipeBeginsFromTheLastColumn() throws {
        let json = try replay(["--json", "--config", TestConfig.shippedPath, "\(Self.directory)/edge-swipes.evemu"])
        let began = json.split(separator: "\n").filter { $0.contains(#""gesture":"admin_menu""#) && $0.contains(#""state":"began""#) }
        #expect(began.count == 2, "\(json)")
    }
}
