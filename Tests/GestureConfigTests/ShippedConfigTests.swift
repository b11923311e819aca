import GestureCore
import Testing

@testable import GestureConfig

/// The repository's `config/gestures.toml`: what `make run` uses and users copy.
@Suite struct ShippedConfigTests {
    func load() throws -> Configuration {
        try ConfigLoader.load(path: Fixture.shippedConfigPath)
    }

    @Test func parsesAndBuildsAModel() throws {
        let configuration = try load()
        let model = configuration.model
        #expect(model.screen == ScreenSize(width: 1920, height: 1080))
        #expect(model.gestures.map(\.name) == ["admin_menu", "reload", "wake", "map_zoom", "map_rotate", "map_pan", "next_floor"])
        #expect(configuration.actions.count == model.gestures.count)
        #expect(model.views.map(\.name) == ["screen", "map", "wake_corner"])
        #expect(model.views[1].frame == Rect(x: 480, y: 0, width: 1440, height: 1080))
        #expect(model.views[2].frame == Rect(x: 1728, y: 0, width: 192, height: 108))
    }

    /// The kiosk the issue asks for: edge swipe, three-finger long press, corner double
    /// tap, pinch on the map, with min_press and cooldowns for a noisy panel.
    @Test func isTheKioskTheIssueDescribes() throws {
        let configuration = try load()
        let gestures = configuration.model.gestures
        let byName = { (name: String) in gestures.firstIndex { $0.name == name }! }

        let admin = gestures[byName("admin_menu")]
        #expect(admin.type == .edgePan)
        #expect(admin.edgePan.edges == .right)

        let reload = gestures[byName("reload")]
        #expect(reload.type == .longPress)
        #expect(reload.longPress.touches == 3)
        #expect(reload.longPress.minimumPressDuration == 2_000_000)

        let wake = gestures[byName("wake")]
        #expect(wake.type == .tap)
        #expect(wake.tap.taps == 2)
        #expect(wake.tap.minPress == 60_000)
        #expect(configuration.model.views[wake.view].name == "wake_corner")

        let zoom = gestures[byName("map_zoom")]
        #expect(zoom.type == .pinch)
        #expect(configuration.model.views[zoom.view].name == "map")
        #expect(zoom.simultaneousWith == [byName("map_rotate")])
        #expect(gestures[byName("map_pan")].requireToFail == [byName("next_floor"), byName("admin_menu")])
        #expect(gestures[byName("map_pan")].simultaneousWith == [byName("map_zoom"), byName("map_rotate")])

        let cooldowns = configuration.actions.flatMap { $0.byState.values.flatMap { $0 } }.map(\.cooldown)
        #expect(cooldowns.filter { $0 > 0 }.count >= 4)
        let wakeAction = configuration.actions[byName("wake")].byState[.recognized]
        #expect(wakeAction == [ActionSpec(kind: .command("/usr/local/libexec/kiosk/wake-display"), cooldown: 1_000_000)])
        let zoomChanged = configuration.actions[byName("map_zoom")].byState[.changed]?.first
        #expect(
            zoomChanged?.kind
                == .socket(
                    path: "/run/kiosk/map.sock",
                    message: MessageTemplate(segments: [
                        .text("zoom "), .field("scale"), .text(" "), .field("x"),
                        .text(" "), .field("y"),
                    ]), datagram: true))
        #expect(configuration.devices.first?.mapping.sizeMM?.width == 476)
        #expect(configuration.daemon.environment == [EnvironmentEntry(name: "KIOSK_URL", value: "http://localhost:8080/")])
    }

    /// The shipped file shows every key, commented where it is not used: each key the
    /// reference documents appears in it.
    @Test func mentionsEveryDocumentedKey() throws {
        let text = try FileText.read(path: Fixture.shippedConfigPath)
        let keys = [
            "socket", "socket_mode", "socket_group", "log_level", "shell", "command_timeout", "kill_grace",
            "max_children", "subscriber_buffer", "socket_queue", "width", "height", "name", "vendor", "product",
            "path", "property", "rotation", "flip_x", "flip_y", "calibration", "output", "size_mm", "ignore", "frame",
            "parent", "enabled", "hidden", "type", "view", "taps", "touches", "max_movement", "tap_interval",
            "tap_distance", "min_press", "min_duration", "allowable_movement", "min_touches", "max_touches",
            "threshold", "edges", "edge_margin", "directions", "min_distance", "min_speed", "max_duration",
            "max_angle", "simultaneous_with", "require_to_fail", "required_to_fail_by", "cannot_prevent",
            "cannot_be_prevented_by", "should_begin", "should_receive_touch", "command", "message",
            "datagram", "cooldown", "timeout", "cancels_touches", "delays_touches_began", "delays_touches_ended",
            "tool_types", "region", "devices", "passthrough", "cancel", "mask", "min_contact", "hold",
            "still_radius", "far_apart", "far_apart_within", "aligned", "spot_count", "spot_radius", "spot_within",
            "spot_release", "jump", "edge_hold", "stuck_after", "noisy_above", "noisy_quiet", "silent_after",
        ]
        for key in keys {
            #expect(text.contains("\(key) =") || text.contains("\(key) = "), "config/gestures.toml never shows \(key)")
        }
    }

    /// docs/CONFIG.md documents every parameter key the loader reads.
    @Test func referenceDocumentsEveryParameter() throws {
        let reference = try FileText.read(path: Fixture.shippedConfigPath.replacing("config/gestures.toml", with: "docs/CONFIG.md"))
        for key in ParameterKeys.allNames {
            #expect(reference.contains("| `\(key)` |"), "docs/CONFIG.md does not document \(key)")
        }
        for key in ConfigBuilder.touchDeliveryKeys + ConfigBuilder.logLevels {
            #expect(reference.contains("`\(key)`"), "docs/CONFIG.md does not mention \(key)")
        }
    }

    @Test func checkReportPrintsEveryResolvedParameterWithDefaults() throws {
        var output: [String] = []
        var errors: [String] = []
        let status = ConfigCheck.run(
            tree: ConfigTree(mainFile: Fixture.shippedConfigPath), enforceSafety: false,
            output: { output.append($0) }, errors: { errors.append($0) })
        #expect(status == 0)
        #expect(errors.isEmpty)
        let report = output.joined(separator: "\n")
        // Explicit values, and defaults marked as such.
        #expect(
            report.contains(
                "  wake: tap on view wake_corner\n    taps = 2\n    touches = 1  # default\n"
                    + "    max_movement = 3mm  # default\n    tap_interval = 350ms  # default\n    tap_distance = 10mm  # default\n"
                    + "    min_press = 60ms\n"))
        #expect(report.contains("    threshold = 10pt  # default\n"))
        #expect(report.contains("    max_angle = 25deg\n"))
        #expect(report.hasSuffix("OK, 7 gestures"))
    }
}
