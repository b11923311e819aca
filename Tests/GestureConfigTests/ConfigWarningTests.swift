import GestureConfig
import Testing

/// `check` warns about a config that loads but almost certainly means something else.
@Suite struct ConfigWarningTests {
    /// The warnings `check` prints for `body` after the screen, and its exit status.
    func check(_ body: String) -> (status: Int32, warnings: [String], path: String) {
        let file = TemporaryFile(contents: Fixture.screen + body)
        var output: [String] = []
        var errors: [String] = []
        let status = ConfigCheck.run(
            tree: ConfigTree(mainFile: file.path), enforceSafety: false,
            output: { output.append($0) }, errors: { errors.append($0) })
        #expect(output.last?.contains(": OK, ") == true)
        return (status, errors, file.path)
    }

    @Test func aSingleAndADoubleTapOnOneViewWithNoRequirementAreWarnedAbout() {
        let (status, warnings, path) = check(
            """
            [gesture.single]
            type = "tap"
            [gesture.double]
            type = "tap"
            taps = 2

            """)
        #expect(status == 0)
        #expect(
            warnings == [
                "\(path):4:10: warning: gesture.single: 'single' (1 tap) and 'double' (2 taps) tap the same touches and no failure "
                    + "requirement orders them, so a person's 2 taps fire 'single' first, then 'double'. That almost certainly "
                    + "means 'single' unless 'double': add require_to_fail = [\"double\"] to [gesture.single]"
            ])
    }

    @Test func aParentViewsTapCountsAsTheSameViewChain() {
        let (_, warnings, _) = check(
            """
            [view.button]
            frame = { width = 100, height = 100 }
            [gesture.double]
            type = "tap"
            taps = 2
            [gesture.press]
            type = "tap"
            view = "button"

            """)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("warning: gesture.press: 'press' (1 tap) and 'double' (2 taps)") == true)
    }

    @Test(arguments: [
        "require_to_fail = [\"double\"]",
        "required_to_fail_by = [\"double\"]",  // the other way round: the double waits: also ordered
        "simultaneous_with = [\"double\"]",
        "cannot_prevent = [\"double\"]",
        "enabled = false",
        "touches = 2",
    ])
    func aDeclaredRelationOrADifferentTouchCountSilencesIt(line: String) {
        let (status, warnings, _) = check(
            """
            [gesture.single]
            type = "tap"
            \(line)
            [gesture.double]
            type = "tap"
            taps = 2

            """)
        #expect(status == 0)
        #expect(warnings.isEmpty)
    }

    @Test func aChainOfRequirementsOrdersEveryPair() {
        let (_, warnings, _) = check(
            """
            [gesture.single]
            type = "tap"
            require_to_fail = ["double"]
            [gesture.double]
            type = "tap"
            taps = 2
            require_to_fail = ["triple"]
            [gesture.triple]
            type = "tap"
            taps = 3

            """)
        #expect(warnings.isEmpty)
    }

    @Test func aGestureThatReceivesPalmsOnlyCanNeverFire() {
        let (status, warnings, path) = check(
            """
            [gesture.rest]
            type = "long-press"
            should_receive_touch = { tool_types = ["palm"] }
            [gesture.any]
            type = "pan"
            should_receive_touch = { tool_types = ["palm", "finger"] }

            """)
        #expect(status == 0)
        #expect(
            warnings == [
                "\(path):6:1: warning: gesture.rest.should_receive_touch.tool_types: 'rest' receives palms only, and a palm is a "
                    + "cancelled touch that reaches no gesture: it can never fire (accept \"finger\" or \"pen\")"
            ])
    }

    @Test func tapsOnSiblingViewsNeverCompete() {
        let (_, warnings, _) = check(
            """
            [view.left]
            frame = { width = 100, height = 100 }
            [view.right]
            frame = { x = 100, width = 100, height = 100 }
            [gesture.single]
            type = "tap"
            view = "left"
            [gesture.double]
            type = "tap"
            view = "right"
            taps = 2

            """)
        #expect(warnings.isEmpty)
    }
}
