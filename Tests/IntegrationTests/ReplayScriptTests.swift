import GestureControl
import TestSupport
import Testing

/// `gesturectl replay --script`: timed control commands applied during a replay of
/// docs/examples/pan-swipe.evemu (a flick left at 0.05 s, then a slow drag panning from
/// 0.84 s to 2.01 s).
@Suite struct ReplayScriptTests {
    static let examples = TestConfig.goldensDirectory + "/../../../docs/examples"
    /// docs/examples/pan-swipe.toml: the pan waits for the swipe to fail.
    static let config = """
        [screen]
        width = 800
        height = 480
        [view.gallery]
        [gesture.scroll]
        type = "pan"
        view = "gallery"
        require_to_fail = ["next_photo"]
        [gesture.next_photo]
        type = "swipe"
        view = "gallery"
        directions = ["left"]

        """

    func replay(_ script: String, json: Bool = true, extraConfig: String = "") throws -> (status: Int32, lines: [String], stderr: String) {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(Self.config + extraConfig, to: config)
        let file = dir.file("script.jsonl")
        try writeText(script, to: file)
        let run = try runTool(
            Binary.gesturectl, ["replay"] + (json ? ["--json"] : []) + ["--script", file, config, Self.examples + "/pan-swipe.evemu"],
            dir: dir)
        return (run.status, run.stdout.split(separator: "\n").map(String.init), run.stderr.replacing(dir.path, with: "DIR"))
    }

    @Test func aPanDisabledMidDragIsCancelledAndTheResetBringsItBack() throws {
        let run = try replay(
            """
            {"t": 0.9, "cmd": "set", "gesture": "scroll", "enabled": false}

            {"t": 1.5, "cmd": "reset"}
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.lines.map { try JSONParser.parse($0) }
        let disabled = try #require(lines.firstIndex { $0.kind == .changed })
        #expect(run.lines[disabled] == #"{"t":0.900,"changed":{"gesture":"scroll","enabled":false},"by":"script"}"#)
        #expect(lines[disabled + 1]["state"]?.stringValue == "cancelled")
        #expect(lines[disabled + 1]["t"]?.doubleValue == 0.9)
        #expect(run.lines.contains(#"{"t":1.500,"changed":{"gesture":"scroll","enabled":true},"by":"script"}"#))
        // Disabled, the pan takes nothing more of the drag it was in, nor does it begin again
        // for the same finger after the reset: a gesture takes the contacts that go down next.
        #expect(lines.dropFirst(disabled + 2).allSatisfy { $0["gesture"] == nil })
    }

    @Test func aModeWithForEndsByItselfDuringTheReplay() throws {
        let run = try replay(
            #"{"t": 0, "cmd": "mode", "mode": "still", "for": "0.5s"}"#,
            extraConfig: "\n[mode.still]\ngestures = { scroll = false, next_photo = false }\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.lines.prefix(3) == [
                #"{"t":0.000,"mode":"still","from":null,"until":0.500000,"cause":"switched","by":"script"}"#,
                #"{"t":0.000,"changed":{"gesture":"scroll","enabled":false},"by":"script"}"#,
                #"{"t":0.000,"changed":{"gesture":"next_photo","enabled":false},"by":"script"}"#,
            ])
        // The flick at 0.05 s comes while the mode is on: no swipe. The drag after the end does pan.
        #expect(!run.lines.contains { $0.contains(#""gesture":"next_photo","type""#) })
        #expect(run.lines[3] == #"{"t":0.500,"mode":null,"from":"still","cause":"expired"}"#)
        #expect(run.lines.contains { $0.contains(#""gesture":"scroll","type":"pan","state":"began""#) })
    }

    @Test func scriptErrorsCarryTheFileAndLine() throws {
        let bad = try replay(
            "{\"t\": 0.1, \"cmd\": \"reset\"}\n{\"t\": 0.2, \"cmd\": \"set\", \"gesture\": \"scroll\", \"enable\": false}\n")
        #expect(bad.status != 0)
        #expect(
            bad.stderr.contains(
                #"DIR/script.jsonl:2: bad-request: set: unknown member "enable"; known: gesture, view, enabled, frame, keep"#),
            "\(bad.stderr)")
        let back = try replay("{\"t\": 0.5, \"cmd\": \"reset\"}\n{\"t\": 0.2, \"cmd\": \"reset\"}\n")
        #expect(back.stderr.contains("DIR/script.jsonl:2: t 0.2 is before the line above: times never go back"), "\(back.stderr)")
        let unknown = try replay(#"{"t": 0.1, "cmd": "set", "gesture": "scrol", "enabled": false}"#)
        #expect(unknown.status != 0)
        #expect(
            unknown.stderr.contains(
                "DIR/script.jsonl:1: unknown-gesture: unknown gesture 'scrol'; did you mean 'scroll'? (known: scroll, next_photo)"),
            "\(unknown.stderr)")
    }
}
