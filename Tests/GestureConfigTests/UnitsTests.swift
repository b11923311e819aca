import GestureCore
import Testing

@testable import GestureConfig

@Suite struct UnitsTests {
    @Test(
        arguments: [
            ("300ms", 300_000), ("0.5s", 500_000), ("2s", 2_000_000), ("250us", 250), ("1min", 60_000_000),
            ("-5ms", -5_000), ("1.5 ms", 1_500),
        ] as [(String, Int64)])
    func durations(text: String, micros: Int64) {
        #expect(Units.duration(text) == micros)
    }

    @Test(arguments: ["300", "ms", "5 sec", "1e3ms", "nan", "--1s", "1.2.3s", "", "99999999h", "100000000s"])
    func notDurations(text: String) {
        #expect(Units.duration(text) == nil)
    }

    @Test func lengths() {
        #expect(Units.length("12mm") == .millimeters(12))
        #expect(Units.length("1.5cm") == .millimeters(15))
        #expect(Units.length("10pt") == .points(10))
        #expect(Units.length("40px") == .pixels(40))
        #expect(Units.length("25%") == nil)  // no parent for a gesture's distances
        #expect(Units.length("12") == nil)
    }

    @Test func anglesSpeedsAndFrames() throws {
        #expect(try #require(Units.angle("30deg")) == 30 * .pi / 180)
        #expect(Units.angle("0.5rad") == 0.5)
        #expect(Units.angle("30") == nil)
        #expect(Units.speed("50mm/s") == 50)
        #expect(Units.frameLength("25%") == .percent(25))
        #expect(Units.frameLength("40px") == .pixels(40))
        #expect(Units.frameLength("4mm") == nil)
        #expect(Units.FrameLength.percent(25).resolve(parentExtent: 1920) == 480)
    }

    @Test func formatting() {
        #expect(Units.format(duration: 350_000) == "350ms")
        #expect(Units.format(duration: 2_000_000) == "2s")
        #expect(Units.format(duration: 0) == "0ms")
        #expect(Units.format(length: .points(10)) == "10pt")
        #expect(Units.format(length: .millimeters(1.25)) == "1.25mm")
        #expect(Units.format(angle: 30 * .pi / 180) == "30deg")
    }

    @Test func didYouMeanFindsTyposOnly() {
        #expect(DidYouMean.suggestion(for: "min_pres", among: ["min_press", "max_movement"]) == "min_press")
        #expect(DidYouMean.suggestion(for: "min-press", among: ["min_press"]) == "min_press")
        #expect(DidYouMean.suggestion(for: "colour", among: ["min_press", "taps"]) == nil)
    }

    /// A word the name extends, or begins but for its last letter: too far apart for edits.
    @Test func didYouMeanFindsTheWordAValueExtends() {
        let directions = ["right", "left", "up", "down"]
        #expect(DidYouMean.suggestion(for: "upward", among: directions) == "up")
        #expect(DidYouMean.suggestion(for: "downwards", among: directions) == "down")
        #expect(DidYouMean.suggestion(for: "rotate", among: ["pinch", "rotation", "pan"]) == "rotation")
        #expect(DidYouMean.suggestion(for: "threshold_px", among: ["threshold", "edges"]) == "threshold")
        #expect(DidYouMean.suggestion(for: "warn", among: ["info", "warning", "error"]) == "warning")
        // Not a stem: too short, or too much of the word missing.
        #expect(DidYouMean.suggestion(for: "u", among: directions) == nil)
        #expect(DidYouMean.suggestion(for: "rot", among: ["rotation"]) == nil)
        #expect(DidYouMean.suggestion(for: "sideways", among: directions) == nil)
    }

    /// The work is bounded by the name's length, not the candidates'.
    @Test func didYouMeanSkipsNamesTooLongToBeTypos() {
        let long = String(repeating: "k", count: 65)
        #expect(DidYouMean.suggestion(for: long, among: [long + "k"]) == nil)
        #expect(DidYouMean.suggestion(for: String(long.dropLast()), among: [long]) == String(long))
        #expect(DidYouMean.suggestion(for: "min_pres", among: ["min_press_and_more"]) == nil)
    }

    @Test func longNamesAreShownShortenedWithTheirLength() {
        let name = String(repeating: "ab", count: 40)
        #expect(Diagnostic.shown(String(name.prefix(64))) == String(name.prefix(64)))
        #expect(Diagnostic.shown(name) == String(name.prefix(32)) + "... (80 characters)")
        #expect(ConfigKeyPath(keys: "daemon", name).description == "daemon.\"\(String(name.prefix(32)))... (80 characters)\"")
    }
}
