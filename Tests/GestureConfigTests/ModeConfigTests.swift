import GestureConfig
import Testing

/// `[mode.NAME]` and the actions that switch modes (`mode = "NAME"`, `for`).
@Suite struct ModeConfigTests {
    static let head =
        Fixture.screen + """
            [view.map]
            frame = { width = "50%" }
            [gesture.map_pan]
            type = "pan"
            view = "map"
            [gesture.admin_menu]
            type = "swipe"
            directions = ["left"]
            enabled = false

            """

    @Test func modesAndTheActionsThatSwitchThem() throws {
        let text =
            Self.head + """
                [gesture.secret]
                type = "long-press"
                [[gesture.secret.on.began]]
                mode = "maintenance"
                for = "60s"
                [[gesture.secret.on.began]]
                command = "logger maintenance"
                [gesture.back]
                type = "tap"
                on.recognized = { mode = "none" }

                [mode.maintenance]
                gestures = { admin_menu = true, map_pan = false }
                [mode.video]
                views = { map = false }
                """
        let configuration = try ConfigLoader.parse(text: text, file: "test.toml")
        #expect(
            configuration.modes == [
                ModeSpec(name: "maintenance", gestures: [.init(index: 1, enabled: true), .init(index: 0, enabled: false)]),
                ModeSpec(name: "video", views: [.init(index: 1, enabled: false)]),
            ])
        #expect(
            configuration.actions[2].byState[.began]?.map(\.kind) == [
                .mode("maintenance", duration: 60_000_000), .command("logger maintenance"),
            ])
        #expect(configuration.actions[3].byState[.recognized]?.map(\.kind) == [.mode(nil, duration: nil)])
    }

    @Test func namesInModesAndActionsAreChecked() {
        let text =
            Self.head + """
                [[gesture.map_pan.on.began]]
                mode = "maintenace"
                [[gesture.map_pan.on.ended]]
                mode = "none"
                for = "1s"
                [[gesture.map_pan.on.cancelled]]
                mode = "video"
                command = "true"

                [mode.maintenance]
                gestures = { admin_menus = true }
                views = { mpa = false, map = "no" }
                [mode.video]
                views = { map = false }
                [mode.none]
                views = { map = false }
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:14:1: error: gesture.map_pan.on.began[0].mode: unknown mode 'maintenace': expected one of maintenance, video or \"none\" (did you mean 'maintenance'?)",
                "test.toml:17:1: error: gesture.map_pan.on.ended[0].for: 'for' needs a mode to end: expected a duration such as \"300ms\" or \"0.5s\"",
                "test.toml:20:1: error: gesture.map_pan.on.cancelled[0].command: both 'mode' and 'command': expected exactly one of command = \"...\", socket = \"/path\", keys = \"KEY\" or mode = \"NAME\"",
                "test.toml:23:1: error: mode.maintenance.gestures.admin_menus: unknown gesture 'admin_menus' (did you mean 'admin_menu'?)",
                "test.toml:24:1: error: mode.maintenance.views.map: wrong type: expected true or false, found \"no\"",
                "test.toml:24:1: error: mode.maintenance.views.mpa: unknown view 'mpa' (did you mean 'map'?)",
                "test.toml:27:7: error: mode.none: 'none' means no mode (mode = \"none\") and cannot be declared: expected another name",
            ])
    }

    @Test func aModeThatChangesNothingIsWarnedAbout() throws {
        let configuration = try ConfigLoader.parse(text: Self.head + "[mode.empty]\n", file: "test.toml")
        #expect(
            configuration.warnings.map(\.description) == [
                "test.toml:13:7: warning: mode.empty: changes nothing: list what it turns on or off: expected gestures = { NAME = true } or views = { NAME = false }"
            ])
    }
}
