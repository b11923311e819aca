import TestSupport

/// Gesture configs for the tests, written into the test's directory.
enum TestConfig {
    /// The gestures every test config has (the goldens' config, `Goldens/test.toml`).
    static var goldenPath: String { goldensDirectory + "/test.toml" }

    /// The repository's shipped `config/gestures.toml`.
    static var shippedPath: String { goldensDirectory + "/../../../config/gestures.toml" }

    static var goldensDirectory: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Goldens"
    }

    /// `[daemon]` settings, then a one-finger tap on an 800x480 screen whose recognitions
    /// run `actions` (TOML action tables for `[[gesture.tap.on.recognized]]`), then a pan.
    static func tapAndPan(daemon: String = "", tapActions: [String] = [], panEnded: [String] = []) -> String {
        var text = "[daemon]\n\(daemon)\n[daemon.environment]\nTEST_MARK = \"from-config\"\n\n"
        text += "[screen]\nwidth = 800\nheight = 480\n\n[gesture.tap]\ntype = \"tap\"\n\n"
        text += "[gesture.drag]\ntype = \"pan\"\nmax_touches = 1\n\n"
        for action in tapActions { text += "[[gesture.tap.on.recognized]]\n\(action)\n\n" }
        for action in panEnded { text += "[[gesture.drag.on.ended]]\n\(action)\n\n" }
        return text
    }
}

enum Recording {
    /// Nine one-finger taps in 1.9 s (Atmel maXTouch).
    static let taps = SharedRecordings.path("atmel-maxtouch-1-finger-fast-taps.evemu")
    /// One finger dragged up and down for 2.2 s: about 150 pan events.
    static let drag = SharedRecordings.path("atmel-maxtouch-1-finger-drag-up-down.evemu")
    /// A two-finger tap (0.8 s).
    static let twoFingerTap = SharedRecordings.path("atmel-maxtouch-2-finger-tap.evemu")
    /// A 0.2 s flick up, after a hook to the right (Google Pixel Tablet).
    static let flick = SharedRecordings.path("google-pixel-tablet-nvt-1-finger-swipe.evemu")
    /// Slow two-finger pinches over 46 s (LG Display).
    static let pinch = SharedRecordings.path("hid-devices-lg-1fd2-0064-slow-pinch-2slot.evemu")
    /// About 950 ghost contacts of 30-56 ms in bursts, and no finger (Advanced Silicon IR frame).
    static let ghosts = SharedRecordings.path("hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu")
}
