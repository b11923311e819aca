import GestureConfig
import GestureCore
import Testing

/// `[device.health]`: every key reaches the stage's settings in its units, bad values are
/// refused at their position, and `check` says what the settings cost.
@Suite struct HealthConfigTests {
    let head = Fixture.screen + "[[device]]\nname = \"Panel*\"\n[device.health]\n"

    @Test func withoutTheTableOnlyTheStuckReleaseIsOn() throws {
        let configuration = try ConfigLoader.parse(text: Fixture.screen + "[[device]]\nname = \"Panel*\"\n", file: "t.toml")
        let health = try #require(configuration.devices.first?.health)
        #expect(health == TouchHealthSettings())
        #expect(health.stuckAfter == 60_000_000)
        #expect(health.minContact == 0 && health.farApart == nil && health.aligned == nil)
        #expect(health.spot == nil && health.jump == nil && health.noisy == nil && health.silentAfter == 0)
        #expect(health.masks.isEmpty)
    }

    @Test func everyKeyIsRead() throws {
        let text =
            head + """
                mask = [{ x = 0, y = 0, width = "10%", height = "100%" }, { x = 700, y = 500, width = 100, height = 100 }]
                min_contact = "60ms"
                hold = false
                still_radius = "2mm"
                far_apart = "15cm"
                far_apart_within = "25ms"
                aligned = "0.5mm"
                spot_count = 5
                spot_radius = "3mm"
                spot_within = "3s"
                spot_release = "2min"
                jump = "20mm"
                stuck_after = "30s"
                noisy_above = 30
                noisy_quiet = "10min"
                silent_after = "1min"
                """
        let health = try #require(try ConfigLoader.parse(text: text, file: "t.toml").devices.first?.health)
        #expect(health.masks == [Rect(x: 0, y: 0, width: 80, height: 600), Rect(x: 700, y: 500, width: 100, height: 100)])
        #expect(health.minContact == 60_000)
        #expect(health.holdNewContacts == false)
        #expect(health.stillRadius == .millimeters(2))
        #expect(health.farApart == .millimeters(150))
        #expect(health.farApartWithin == 25_000)
        #expect(health.aligned == .millimeters(0.5))
        var spot = TouchHealthSettings.Spot(count: 5)
        spot.radius = .millimeters(3)
        spot.within = 3_000_000
        spot.release = 120_000_000
        #expect(health.spot == spot)
        #expect(health.jump == .millimeters(20))
        #expect(health.stuckAfter == 30_000_000)
        var noisy = TouchHealthSettings.Noisy(perMinute: 30)
        noisy.quiet = 600_000_000
        #expect(health.noisy == noisy)
        #expect(health.silentAfter == 60_000_000)
    }

    @Test func stuckAfterZeroTurnsTheReleaseOff() throws {
        let health = try #require(try ConfigLoader.parse(text: head + "stuck_after = \"0s\"\n", file: "t.toml").devices.first?.health)
        #expect(health.stuckAfter == 0)
    }

    @Test func badValuesAreRefusedAtTheirKeys() {
        let messages = Fixture.messages(
            head + """
                min_contact = 60
                jump = "-3mm"
                spot_count = 1
                noisy_above = 0
                stil_radius = "1mm"
                mask = [3]
                """)
        #expect(
            messages == [
                "test.toml:7:1: error: device[0].health.min_contact: a number needs a unit here: expected a duration such as \"300ms\" or \"0.5s\", found 60",
                "test.toml:8:1: error: device[0].health.jump: must not be negative: expected a length such as \"12mm\", \"10pt\" or \"40px\", found \"-3mm\"",
                "test.toml:9:1: error: device[0].health.spot_count: out of range: expected contacts, 2 to 1000, found 1",
                "test.toml:10:1: error: device[0].health.noisy_above: out of range: expected filtered contacts a minute, 1 to 10000, found 0",
                "test.toml:11:1: error: device[0].health.stil_radius: unknown key 'stil_radius' (did you mean 'still_radius'?)",
                "test.toml:12:1: error: device[0].health.mask[0]: wrong type: expected a frame { x, y, width, height }, found 3",
            ])
    }

    @Test func aKeyOfARuleThatIsOffIsAnError() {
        let messages = Fixture.messages(head + "hold = true\nspot_radius = \"2mm\"\nnoisy_quiet = \"1min\"\n")
        #expect(
            messages == [
                "test.toml:7:1: error: device[0].health.hold: has no effect without min_contact: expected min_contact in the same [device.health]",
                "test.toml:8:1: error: device[0].health.spot_radius: has no effect without spot_count: expected spot_count in the same [device.health]",
                "test.toml:9:1: error: device[0].health.noisy_quiet: has no effect without noisy_above: expected noisy_above in the same [device.health]",
            ])
    }

    // MARK: actions on health changes

    let actionsHead = Fixture.screen + "[[device]]\nname = \"Panel*\"\n"

    @Test func healthActionsTakeTheGesturesKeysWithATenMinuteCooldown() throws {
        let text =
            actionsHead + """
                [device.on.noisy]
                command = 'systemctl --no-block start "gestured-panel-reset@${GESTURE_DEVICE_PATH##*/}.service"'
                [[device.on.silent]]
                socket = "/run/kiosk/health.sock"
                message = "{device_name} {health}: {reason}"
                cooldown = "60min"
                [[device.on.silent]]
                socket = "/run/kiosk/health.sock"
                datagram = true
                [device.on.ok]
                command = "logger panel ok"
                cooldown = "0s"
                timeout = "2s"
                """
        let rule = try #require(try ConfigLoader.parse(text: text, file: "t.toml").devices.first)
        let actions = rule.healthActions.byState
        #expect(
            actions[.noisy] == [
                ActionSpec(
                    kind: .command(#"systemctl --no-block start "gestured-panel-reset@${GESTURE_DEVICE_PATH##*/}.service""#),
                    cooldown: 600_000_000)
            ])
        // Parsed before #expect: Swift 6.0's macro cannot take a `try` inside (Debian 13's Swift).
        let message = try MessageTemplate(parsing: "{device_name} {health}: {reason}", among: MessageTemplate.healthFieldNames)
        #expect(
            actions[.silent] == [
                ActionSpec(
                    kind: .socket(path: "/run/kiosk/health.sock", message: message, datagram: false), cooldown: 3_600_000_000),
                ActionSpec(kind: .socket(path: "/run/kiosk/health.sock", message: nil, datagram: true), cooldown: 600_000_000),
            ])
        #expect(actions[.ok] == [ActionSpec(kind: .command("logger panel ok"), cooldown: 0, timeout: 2_000_000)])
        let report = ConfigReport.text(of: try ConfigLoader.parse(text: text, file: "t.toml"))
        #expect(
            report.contains("    on.silent: datagram to /run/kiosk/health.sock: the health change's JSON line, cooldown 600s\n"),
            "\(report)")
        #expect(report.contains("    on.ok: command logger panel ok (timeout 2s)\n"), "\(report)")
    }

    @Test func healthActionsRefuseUnknownStatesAndGestureFields() {
        let messages = Fixture.messages(
            actionsHead + """
                [device.on.noisey]
                command = "true"
                [device.on.ok]
                socket = "/run/k.sock"
                message = "{gesture} {helth}"
                [device.on.silent]
                command = "echo {reason}"
                coldown = "1min"
                """)
        #expect(
            messages == [
                "test.toml:6:12: error: device[0].on.noisey: unknown health state 'noisey': expected on.ok, on.noisy, on.silent (did you mean 'on.noisy'?)",
                "test.toml:10:1: error: device[0].on.ok.message: unknown placeholder '{gesture}': expected placeholders among {t} {device} {health} {reason} {device_name} {device_path}",
                "test.toml:12:1: error: device[0].on.silent.command: commands do not expand {reason}: values are passed in environment variables, never spliced into the shell string: expected \"$GESTURE_REASON\", found \"{reason}\"",
                "test.toml:13:1: error: device[0].on.silent.coldown: unknown key 'coldown' (did you mean 'cooldown'?)",
            ])
    }

    @Test func checkPrintsTheRulesAndTheHoldsLatency() throws {
        let report = ConfigReport.text(
            of: try ConfigLoader.parse(text: head + "min_contact = \"60ms\"\njump = \"20mm\"\n", file: "t.toml"))
        #expect(
            report.contains(
                """
                  device[0]: name "Panel*" -> rotation 0, output whole screen
                    health.min_contact = 60ms
                    health.hold = true  # default
                    health.still_radius = 1.5mm  # default
                    health.jump = 20mm
                    health.stuck_after = 60s  # default
                    health: every new touch is shown 60ms late (min_contact with hold = true)
                """))
    }
}
