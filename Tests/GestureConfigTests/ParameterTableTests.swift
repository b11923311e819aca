import GestureConfig
import GestureCore
import TestSupport
import Testing

/// Each gesture type's keys are the fields its recognizer reads: `check` prints exactly
/// those, each one set in the file reaches the gesture, and a key of another type is refused.
@Suite struct ParameterTableTests {
    /// The keys of each type, in the order `gesturectl check` prints them, with a value
    /// other than the default.
    static let keys: [(type: String, keys: [(String, String)])] = [
        (
            "tap",
            [
                ("taps", "2"), ("touches", "2"), ("max_movement", "\"4mm\""), ("tap_interval", "\"400ms\""),
                ("tap_distance", "\"12mm\""), ("min_press", "\"60ms\""),
            ]
        ),
        (
            "long-press",
            [
                ("taps", "1"), ("touches", "2"), ("min_duration", "\"1s\""),
                ("allowable_movement", "\"2mm\""), ("tap_interval", "\"600ms\""),
            ]
        ),
        ("pan", [("min_touches", "2"), ("max_touches", "3"), ("threshold", "\"2mm\"")]),
        (
            "edge-pan",
            [
                ("min_touches", "2"), ("max_touches", "3"), ("threshold", "\"2mm\""), ("edges", "[\"top\"]"),
                ("edge_margin", "\"8mm\""),
            ]
        ),
        (
            "swipe",
            [
                ("touches", "2"), ("directions", "[\"up\"]"), ("min_distance", "\"20mm\""),
                ("min_speed", "\"80mm/s\""), ("max_duration", "\"1s\""), ("max_angle", "\"20deg\""),
                ("jitter", "\"3mm\""),
            ]
        ),
        ("pinch", [("threshold", "\"2mm\"")]),
        ("rotation", [("threshold", "\"5deg\"")]),
    ]

    /// The parameter lines `check` prints for the one gesture `g` of `body` (an edge pan
    /// starts from the left edge unless `body` says otherwise).
    func parameterLines(_ type: String, _ body: String = "") throws -> [String] {
        let edges = type == "edge-pan" && !body.contains("edges =") ? "edges = [\"left\"]\n" : ""
        let text = Fixture.screen + "[gesture.g]\ntype = \"\(type)\"\n" + edges + body
        let report = ConfigReport.text(of: try ConfigLoader.parse(text: text, file: "test.toml"))
        let lines = report.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  g: ") }) else { return [] }
        return Array(lines[(start + 1)...].prefix { $0.hasPrefix("    ") && $0.contains(" = ") })
    }

    @Test(arguments: keys.map(\.type)) func checkPrintsExactlyTheKeysOfTheType(type: String) throws {
        let expected = try #require(Self.keys.first { $0.type == type }).keys
        let lines = try parameterLines(type)
        #expect(lines.map { String($0.dropFirst(4).prefix { $0 != " " }) } == expected.map(\.0))
    }

    /// Setting each key to another value than its default changes that key's line, and only it.
    @Test(arguments: keys.map(\.type)) func everyKeyReachesTheGesture(type: String) throws {
        let expected = try #require(Self.keys.first { $0.type == type }).keys
        let defaults = try parameterLines(type)
        for (index, (key, value)) in expected.enumerated() {
            let lines = try parameterLines(type, "\(key) = \(value)\n")
            #expect(!lines[index].hasSuffix("# default"), "\(type).\(key) = \(value) did not reach the gesture")
            #expect(lines[index] != defaults[index])
        }
    }

    /// A long press with `taps` reads `tap_interval`, so it is settable for a long press:
    /// a press 500 ms after the tap's lift begins with 600 ms, and fails with the default.
    @Test func aLongPressWithTapsHonoursItsTapInterval() throws {
        func run(_ body: String) throws -> PipelineHarness {
            let text = Fixture.screen + "[gesture.g]\ntype = \"long-press\"\ntaps = 1\n" + body
            let model = try ConfigLoader.parse(text: text, file: "test.toml").model
            var b = FrameBuilder(screen: model.screen)
            b.tap(1, x: 100, y: 100, at: 0)
            b.down(2, x: 101, y: 100, at: 580_000)
            b.up(2, at: 1_400_000)
            let h = PipelineHarness(model: model)
            h.attach(b)
            h.run(b.frames)
            h.settle()
            return h
        }
        let slow = try run("tap_interval = \"600ms\"\n")
        #expect(slow.log == ["g began", "g ended"])
        #expect(slow.events.first?.time == 1_080_000)
        #expect(slow.engine.model.gestures[0].longPress.tapInterval == 600_000)
        #expect(try run("").log.isEmpty)
    }

    @Test func aKeyOfAnotherTypeNamesItsTypes() {
        #expect(
            Fixture.messages(Fixture.screen + "[gesture.g]\ntype = \"pinch\"\ntap_interval = \"1s\"\n") == [
                "test.toml:6:1: error: gesture.g.tap_interval: 'tap_interval' is not a parameter of a pinch gesture (it belongs to tap, long-press)"
            ])
    }
}
