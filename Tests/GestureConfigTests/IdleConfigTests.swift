import GestureConfig
import Testing

/// `[idle]`: the screen that sleeps and wakes without a click.
@Suite struct IdleConfigTests {
    @Test func afterAndTheActionsOfSleepAndWake() throws {
        let text =
            Fixture.screen + """
                [[device]]
                passthrough = true
                [idle]
                after = "5min"
                [idle.on.sleep]
                command = "wlopm --off '*'"
                [[idle.on.wake]]
                command = "wlopm --on '*'"
                timeout = "2s"
                [[idle.on.wake]]
                command = "touch /run/kiosk/awake"
                """
        let configuration = try ConfigLoader.parse(text: text, file: "test.toml")
        let idle = try #require(configuration.idle)
        #expect(idle.after == 300_000_000)
        #expect(idle.onSleep.map(\.kind) == [.command("wlopm --off '*'")])
        #expect(idle.onWake.map(\.kind) == [.command("wlopm --on '*'"), .command("touch /run/kiosk/awake")])
        #expect(idle.onWake.first?.timeout == 2_000_000)
        #expect(configuration.warnings.isEmpty)
        #expect(try ConfigLoader.parse(text: Fixture.screen, file: "test.toml").idle == nil)
    }

    /// Without touch delivery the application reads the panel itself: gestured cannot keep
    /// the waking touch from it.
    @Test func withoutPassthroughTheWakingTouchReachesTheApplication() throws {
        let configuration = try ConfigLoader.parse(text: Fixture.screen + "[idle]\nafter = \"5min\"\n", file: "test.toml")
        #expect(
            configuration.warnings.map(\.description) == [
                "test.toml:4:2: warning: idle: no [[device]] has passthrough = true: the touch that wakes the screen still "
                    + "reaches the application (gestured's gestures alone miss it)"
            ])
    }

    @Test func theBoundsOfAfterAndWhatAnIdleActionMayBe() {
        #expect(
            Fixture.messages(Fixture.screen + "[idle]\nafter = \"500ms\"\n") == [
                "test.toml:5:1: error: idle.after: must be at least 1s: expected a duration such as \"300ms\" or \"0.5s\", found \"500ms\""
            ])
        // Past a day, as every duration.
        #expect(
            Fixture.messages(Fixture.screen + "[idle]\nafter = \"1441min\"\n").first?.contains(
                "idle.after: unknown unit or malformed number")
                == true)
        #expect(
            Fixture.messages(Fixture.screen + "[idle.on.sleep]\ncommand = \"true\"\n") == [
                "test.toml:4:2: error: idle.after: missing: expected a duration: after = \"5min\""
            ])
        let text =
            Fixture.screen + """
                [idle]
                after = "10s"
                [idle.on.slep]
                command = "true"
                [idle.on.wake]
                socket = "/run/kiosk.sock"
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:6:10: error: idle.on.slep: unknown idle state 'slep': expected on.sleep, on.wake (did you mean 'on.sleep'?)",
                "test.toml:8:10: error: idle.on.wake: an idle action runs a command: expected command = \"...\"",
            ])
    }
}
