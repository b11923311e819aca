import GestureConfig
import GestureCore
import Testing

/// `cancels_touches`, `delays_touches_began`, `delays_touches_ended` per gesture and
/// `passthrough` per view reach the model, with UIKit's defaults when unset.
@Suite struct TouchDeliveryConfigTests {
    @Test func defaultsAreUIKits() throws {
        let configuration = try ConfigLoader.parse(text: Fixture.screen + "[view.v]\n[gesture.t]\ntype = \"tap\"\n", file: "t.toml")
        #expect(
            configuration.model.gestures[0].delivery
                == DeliveryOptions(
                    cancelsTouches: true, delaysTouchesBegan: false,
                    delaysTouchesEnded: true))
        #expect(configuration.model.views.allSatisfy { $0.passthrough })
    }

    @Test func everyKeyIsRead() throws {
        let text =
            Fixture.screen + """
                [view.strip]
                passthrough = false
                [gesture.t]
                type = "long-press"
                view = "strip"
                cancels_touches = false
                delays_touches_began = true
                delays_touches_ended = false
                """
        let configuration = try ConfigLoader.parse(text: text, file: "t.toml")
        #expect(
            configuration.model.gestures[0].delivery
                == DeliveryOptions(
                    cancelsTouches: false, delaysTouchesBegan: true,
                    delaysTouchesEnded: false))
        #expect(configuration.model.views.map(\.passthrough) == [true, false])
    }

    @Test func checkSaysWhatTheApplicationMissesPerView() throws {
        let text =
            Fixture.screen + """
                [view.strip]
                frame = { x = 0, y = 0, width = "100%", height = 40 }
                passthrough = false
                [view.corner]
                frame = { x = 0, y = 500, width = 100, height = 100 }
                [gesture.wake]
                type = "tap"
                view = "corner"
                taps = 2
                tap_interval = "300ms"
                [gesture.menu]
                type = "long-press"
                view = "corner"
                delays_touches_began = true
                min_duration = "800ms"
                """
        let report = ConfigReport.text(of: try ConfigLoader.parse(text: text, file: "t.toml"))
        #expect(
            report.contains(
                """
                touch delivery (what the application under each view misses):
                  screen: passes every touch
                  strip: passthrough = false: touches that begin here never reach the application
                  corner: a new touch is held up to 800ms (menu: until it recognizes or fails); a lift is held up to 300ms (wake: the next tap may come); touches are cancelled when menu begins, or wake recognizes
                  applied to no device: no [[device]] rule sets passthrough = true, so applications read the panels themselves (gesturectl replay --delivery shows what they would see)
                """))
    }

    @Test func checkSaysHowEachGrabbedDeviceCancels() throws {
        let text =
            Fixture.screen
            + "[[device]]\nname = \"A*\"\npassthrough = true\n[[device]]\nname = \"B*\"\npassthrough = true\ncancel = \"palm\"\n"
        let report = ConfigReport.text(of: try ConfigLoader.parse(text: text, file: "t.toml"))
        #expect(
            report.contains(
                "  device[0]: passthrough: grabbed, applications read its virtual clone; cancel = \"release\": a cancelled touch lifts, which an application may take as a click"
            ))
        #expect(
            report.contains(
                "  device[1]: passthrough: grabbed, applications read its virtual clone; cancel = \"palm\": a cancelled touch becomes a palm"
            ))
        #expect(!report.contains("applied to no device"))
        #expect(!report.contains("by its health stage"))
    }

    /// The health stage's hold on new contacts is latency the application feels, as a
    /// gesture's `delays_touches_began` is: the delivery section says so per grabbing device.
    @Test func theHealthHoldIsPartOfTheDeliveryLatency() throws {
        let text =
            Fixture.screen + "[[device]]\nname = \"A*\"\npassthrough = true\n[device.health]\nmin_contact = \"60ms\"\n"
            + "[[device]]\nname = \"B*\"\npassthrough = true\n[device.health]\nmin_contact = \"60ms\"\nhold = false\n"
        let report = ConfigReport.text(of: try ConfigLoader.parse(text: text, file: "t.toml"))
        #expect(
            report.contains(
                "  device[0]: every new touch is held 60ms by its health stage first (min_contact, hold = true): "
                    + "the application gets it that much later, on top of the holds above"))
        #expect(!report.contains("device[1]: every new touch is held"))
    }
}

/// `passthrough` and `cancel` per `[[device]]`.
@Suite struct DevicePassthroughConfigTests {
    @Test func offByDefaultAndReleaseCancels() throws {
        let configuration = try ConfigLoader.parse(text: Fixture.screen + "[[device]]\nname = \"ELAN*\"\n", file: "t.toml")
        #expect(configuration.devices[0].passthrough == false)
        #expect(configuration.devices[0].cancel == .release)
    }

    @Test func read() throws {
        let text = Fixture.screen + "[[device]]\nname = \"ELAN*\"\npassthrough = true\ncancel = \"palm\"\n"
        let configuration = try ConfigLoader.parse(text: text, file: "t.toml")
        #expect(configuration.devices[0].passthrough)
        #expect(configuration.devices[0].cancel == .palm)
    }

    @Test func unknownCancelMode() {
        let text = Fixture.screen + "[[device]]\ncancel = \"plam\"\n"
        #expect(
            Fixture.messages(text) == [
                "test.toml:5:1: error: device[0].cancel: unknown cancel mode 'plam': expected palm, release (did you mean 'palm'?)"
            ])
    }
}
