import GestureCore
import TestSupport
import Testing
import TouchInput

/// Every real recording of ../shared/recordings through the health stage, with the
/// defaults and with the recipe for a noisy panel (docs/CONFIG.md, "A panel with ghost
/// touches"), then through an engine with a gesture of every kind: the defaults filter no
/// contact and change no gesture; the recipe filters the ghost bursts whole.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct HealthRecordingTests {
    /// The recipe of docs/CONFIG.md.
    static let recipe: TouchHealthSettings = {
        var s = TouchHealthSettings()
        s.minContact = 60_000
        s.jump = .millimeters(40)
        s.noisy = TouchHealthSettings.Noisy(perMinute: 30)
        return s
    }()

    /// The recipe without the hold: ghosts shown, then cancelled.
    static let recipeWithoutHold: TouchHealthSettings = {
        var s = recipe
        s.holdNewContacts = false
        return s
    }()

    /// Chromium's burst rules alone, in mm.
    static let bursts: TouchHealthSettings = {
        var s = TouchHealthSettings()
        s.aligned = .millimeters(0.5)
        s.farApart = .millimeters(150)
        return s
    }()

    /// What one recording came to.
    struct Outcome: Equatable {
        var contacts = 0
        /// Contacts that reached the engine.
        var shown = 0
        var filtered: [HealthRule: Int] = [:]
        /// "gesture count" of every gesture recognized or begun.
        var gestures: [String] = []
        var states: [String] = []
    }

    /// One recording, normalized once, run through any settings.
    struct Recording {
        let row: RecordedSwipeTests.Row
        let info: TouchDeviceInfo
        let frames: [TouchFrame]
        let screen: ScreenSize
        let mapping: DeviceMapping
        let geometry: DeviceGeometry

        init(_ row: RecordedSwipeTests.Row) throws {
            self.row = row
            let recording = try EvemuRecording.read(
                path: SharedRecordings.path(row.file), descPath: row.desc.map(SharedRecordings.path))
            info = recording.info
            let normalizer = try #require(TouchNormalizer(device: DeviceID(1), info: info))
            var frames: [TouchFrame] = []
            for event in recording.events where normalizer.feed(event) { frames.append(normalizer.frame) }
            self.frames = frames
            screen = ScreenSize(
                width: Double(info.x.maximum - info.x.minimum + 1), height: Double(info.y.maximum - info.y.minimum + 1))
            var mapping = DeviceMapping.identity
            mapping.sizeMM = row.sizeMM
            self.mapping = mapping
            geometry = DeviceGeometry(screen: screen, x: info.x, y: info.y, mapping: mapping)
        }

        /// The frames through the stage (nil: straight on) and, unless `engine` is false, an
        /// engine with a gesture of each kind.
        func outcome(_ settings: TouchHealthSettings?, engine: Bool = true) throws -> Outcome {
            var outcome = Outcome()
            outcome.contacts = Set(frames.flatMap { $0.contacts.map(\.id) }).count
            if let settings {
                let health = HealthRun(settings, geometry: geometry)
                health.run(frames, until: (frames.last?.time ?? 0) + 120_000_000)
                #expect(health.violations.isEmpty, "\(row.file): \(health.violations.prefix(3))")
                outcome.shown = health.shown.count
                for f in health.filtered { outcome.filtered[f.rule, default: 0] += 1 }
                outcome.states = health.stateChanges
            } else {
                outcome.shown = outcome.contacts
            }
            guard engine else { return outcome }
            var m = ModelBuilder(screen: screen)
            m.gesture("tap", .tap)
            m.gesture("long-press", .longPress)
            m.gesture("swipe", .swipe) { $0.swipe.directions = [.up, .down, .left, .right] }
            m.gesture("pan", .pan)
            m.gesture("pinch", .pinch)
            m.require("pan", toFail: "swipe")
            m.simultaneous("pinch", with: "pan")
            // The pipeline runs the same stage on the way to the engine.
            var straight = TouchHealthSettings()
            straight.stuckAfter = 0
            let harness = PipelineHarness(model: try m.build(), trace: false)
            harness.attach(
                device: DeviceID(1), name: info.name, x: info.x, y: info.y, mapping: mapping, health: settings ?? straight)
            harness.run(frames)
            harness.settle()
            for name in Self.gestures {
                let n = harness.events(of: name).filter { $0.state == .recognized || $0.state == .began }.count
                if n > 0 { outcome.gestures.append("\(name) \(n)") }
            }
            return outcome
        }

        static let gestures = ["tap", "long-press", "swipe", "pan", "pinch"]

        /// The longest move of one contact between two frames, mm.
        var longestStep: Double {
            var longest = 0.0
            var last: [Int32: (x: Double, y: Double)] = [:]
            for frame in frames {
                for c in frame.contacts {
                    let placed = geometry.place(c)
                    let mm = (x: placed.mmX, y: placed.mmY)
                    if let l = last[c.id] {
                        longest = max(longest, ((mm.x - l.x) * (mm.x - l.x) + (mm.y - l.y) * (mm.y - l.y)).squareRoot())
                    }
                    last[c.id] = c.phase.isTerminal ? nil : mm
                }
            }
            return longest
        }
    }

    /// Per recording: the defaults filter nothing and change no gesture; the recipe without
    /// its hold filters only ghosts, and where it filters nothing changes no gesture. Prints
    /// the note's table row: contacts, the longest one-frame step (mm), filtered with the
    /// defaults, by the recipe, by the recipe without hold and by Chromium's burst rules,
    /// then the gestures without the stage, with the defaults, the recipe and without hold.
    /// (With the hold, a stroke reaches the engine once it moved 1.5 mm or lasted
    /// min_contact: it starts later and faster, and a slow drag may become a swipe.)
    @Test(arguments: RecordedSwipeTests.rows)
    func theDefaultsLoseNothing(row: RecordedSwipeTests.Row) throws {
        let r = try Recording(row)
        let bare = try r.outcome(nil)
        let defaults = try r.outcome(TouchHealthSettings())
        #expect(defaults.filtered.isEmpty)
        #expect(defaults.shown == bare.contacts)
        #expect(defaults.gestures == bare.gestures)
        let noHold = try r.outcome(Self.recipeWithoutHold)
        #expect(Set(noHold.filtered.keys).isSubset(of: [.ghost]))
        if noHold.filtered.isEmpty { #expect(noHold.gestures == bare.gestures) }
        let recipe = try r.outcome(Self.recipe)
        let bursts = try r.outcome(Self.bursts, engine: false)
        func rules(_ o: Outcome) -> String {
            HealthRule.allCases.compactMap { rule in o.filtered[rule].map { "\(rule) \($0)" } }.joined(separator: ", ")
        }
        func same(_ o: Outcome) -> String { o.gestures == bare.gestures ? "same" : o.gestures.joined(separator: ", ") }
        print(
            "| \(row.file) | \(bare.contacts) | \(Int(r.longestStep.rounded())) | \(defaults.filtered.values.reduce(0, +)) | "
                + "\(rules(recipe)) | \(rules(noHold)) | \(rules(bursts)) | \(bare.gestures.joined(separator: ", ")) | "
                + "\(same(defaults)) | \(same(recipe)) | \(same(noHold)) |")
    }

    @Test func theRecipeFiltersEveryGhostOfTheBursts() throws {
        let r = try Recording(try #require(RecordedSwipeTests.rows.first { $0.file.contains("ghost-touch-bursts") }))
        let bare = try r.outcome(nil)
        let recipe = try r.outcome(Self.recipe)
        #expect(bare.gestures.contains { $0.hasPrefix("tap ") }, "the bursts tap without the stage")
        #expect(recipe.shown == 0)
        #expect(recipe.gestures.isEmpty)
        #expect(recipe.filtered == [.ghost: bare.contacts])
        #expect(recipe.states.first?.hasSuffix("ok->noisy") == true)
    }
}
