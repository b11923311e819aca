import Testing

@testable import GestureConfig

/// A config read from a list of files: later files set keys of earlier ones, and every
/// diagnostic and key location names the file that wrote it.
@Suite struct SourceListTests {
    static let main = """
        [screen]
        width = 800
        height = 600
        [view.left]
        frame = { width = "50%" }
        [gesture.wake]
        type = "tap"
        taps = 2
        require_to_fail = ["hold"]
        [gesture.hold]
        type = "long-press"
        [[device]]
        name = "Panel*"
        rotation = 90

        """

    static func parse(_ texts: [(String, String)]) throws(ConfigError) -> Configuration {
        try ConfigLoader.parse(texts.map { ConfigSource(file: $0.0, text: $0.1) })
    }

    @Test func oneFileIsTheListOfOne() throws {
        let one = try ConfigLoader.parse(text: Self.main, file: "main.toml")
        let list = try Self.parse([("main.toml", Self.main)])
        #expect(one.model == list.model && one.devices == list.devices && list.files == ["main.toml"])
    }

    @Test func aLaterFileSetsKeysAndAddsViewsGesturesAndDevices() throws {
        let dropIn = """
            [view.right]
            frame = { x = "50%", width = "50%" }
            [gesture.wake]
            taps = 3
            require_to_fail = []
            [gesture.swipe]
            type = "swipe"
            view = "right"
            [[device]]
            name = "Panel*"
            flip_x = true
            [[device]]
            name = "Other"

            """
        let configuration = try Self.parse([("main.toml", Self.main), ("d/50-site.toml", dropIn)])
        let model = configuration.model
        // Views and gestures of the drop-in come after the main file's (z-order, listing).
        #expect(model.views.map(\.name) == ["screen", "left", "right"])
        #expect(model.gestures.map(\.name) == ["wake", "hold", "swipe"])
        #expect(model.gestures[0].parameters.tap?.taps == 3)
        #expect(model.gestures[0].requireToFail.isEmpty, "an array is replaced, not appended")
        // A rule with the same match keys is the same rule; another is added.
        #expect(configuration.devices.count == 2)
        #expect(configuration.devices[0].mapping.rotation == 90 && configuration.devices[0].mapping.flipX)
        #expect(configuration.devices[1].match.name == "Other")
        #expect(configuration.files == ["main.toml", "d/50-site.toml"])
    }

    @Test func diagnosticsNameTheFileThatWroteTheKeyInFileOrder() throws {
        let dropIn = """
            [gesture.wake]
            taps = -1
            [gesture.extra]
            type = "tapp"
            [[device]]
            name = "New"
            rotation = 45

            """
        let main = Self.main.replacing("type = \"long-press\"", with: "type = \"long-press\"\nmin_duration = \"-1s\"")
        #expect(throws: Never.self) { try ConfigLoader.parse(text: Self.main, file: "main.toml") }
        do {
            _ = try Self.parse([("main.toml", main), ("50-site.toml", dropIn)])
            Issue.record("expected a refusal")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "main.toml:12:1: error: gesture.hold.min_duration: must not be negative: expected a duration such as \"300ms\" or \"0.5s\", found \"-1s\"",
                    "50-site.toml:2:1: error: gesture.wake.taps: out of range: expected an integer from 0 to 20, found -1",
                    "50-site.toml:4:1: error: gesture.extra.type: unknown gesture type 'tapp': expected tap, long-press, pan, swipe, pinch, rotation, edge-pan (did you mean 'tap'?)",
                    "50-site.toml:7:1: error: device[1].rotation: not a quarter turn: expected 0, 90, 180 or 270, found 45",
                ])
        }
    }

    @Test func aSyntaxErrorNamesItsFile() {
        #expect(throws: ConfigError.self) { try Self.parse([("main.toml", Self.main), ("bad.toml", "[gesture.x\n")]) }
        do {
            _ = try Self.parse([("main.toml", Self.main), ("bad.toml", "\n[gesture.x\n")])
        } catch {
            #expect(error.description.hasPrefix("bad.toml:2:"), "\(error)")
        }
    }

    @Test func locationsOrderByFileThenPosition() throws {
        let a = ConfigLocation(file: "b.toml", fileIndex: 0, position: SourcePosition(line: 9, column: 1))
        let b = ConfigLocation(file: "a.toml", fileIndex: 1, position: SourcePosition(line: 1, column: 1))
        #expect(a < b)
        #expect(b.description == "a.toml:1:1")
    }

    @Test func aReplacedValueRemembersWhereTheEarlierOneWas() throws {
        let sources = [
            ConfigSource(file: "main.toml", text: Self.main),
            ConfigSource(file: "a.toml", text: "[gesture.wake]\ntaps = 3\n"),
            ConfigSource(file: "b.toml", text: "\n[gesture.wake]\ntaps = 4\n"),
        ]
        let merged = try ConfigLoader.build(sources).sources
        let taps = ConfigKeyPath(keys: "gesture", "wake", "taps")
        #expect(merged.location(of: taps).description == "b.toml:3:1")
        #expect(merged.replaced(at: taps).map(\.description) == ["main.toml:8:1", "a.toml:2:1"])
        #expect(merged.location(of: ConfigKeyPath(keys: "gesture", "wake")).description == "main.toml:6:10")
        #expect(merged.location(of: ConfigKeyPath(keys: "gesture", "wake", "type")).description == "main.toml:7:1")
    }
}
