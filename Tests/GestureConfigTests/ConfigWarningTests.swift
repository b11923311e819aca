import Testing

@testable import GestureConfig

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

    /// The integrator's trap: the admin edge swipe over the map, without the map pan waiting
    /// for it. `check` said OK; the swipe was "prevented by map_pan".
    @Test func theShippedMapPanWithoutItsEdgeRuleIsWarnedAbout() throws {
        let text = try FileText.read(path: Fixture.shippedConfigPath)
            .replacing("require_to_fail = [\"next_floor\", \"admin_menu\"]", with: "require_to_fail = [\"next_floor\"]")
        let file = TemporaryFile(contents: text)
        let configuration = try ConfigLoader.load(path: file.path)
        #expect(configuration.warnings.count == 1)
        #expect(
            configuration.warnings.first?.description.contains(
                "warning: gesture.admin_menu: 'admin_menu' (edge-pan) and 'map_pan' (pan) receive the same touches") == true)
        #expect(
            configuration.warnings.first?.message.contains("Add require_to_fail = [\"admin_menu\"] to [gesture.map_pan]") == true)
    }

    /// A three-finger 4 s long press beside the shipped three-finger 2 s `reload`: the 2 s one
    /// is recognized first and prevents it every time.
    @Test func aLongerPressOnTheSameTouchesIsWarnedAbout() throws {
        let hold = "[gesture.hold]\ntype = \"long-press\"\ntouches = 3\nmin_duration = \"4s\"\n"
        let text = try FileText.read(path: Fixture.shippedConfigPath) + "\n" + hold
        let file = TemporaryFile(contents: text)
        let configuration = try ConfigLoader.load(path: file.path)
        #expect(configuration.warnings.count == 1)
        #expect(
            configuration.warnings.first?.description.contains(
                "warning: gesture.hold.min_duration: 'hold' (4s) and 'reload' (2s) are long presses of the same 3 touches: "
                    + "'reload' is recognized first and prevents 'hold', which never fires") == true,
            "\(configuration.warnings)")
        // Not when the longer one may run beside it, takes other touches, or allows more
        // movement (a drifting press fails the shorter only).
        for other in [
            hold + "simultaneous_with = [\"reload\"]\n", hold.replacing("touches = 3", with: "touches = 2"),
            hold + "allowable_movement = \"20mm\"\n",
        ] {
            let file = TemporaryFile(contents: try FileText.read(path: Fixture.shippedConfigPath) + "\n" + other)
            #expect(try ConfigLoader.load(path: file.path).warnings.isEmpty, "\(other)")
        }
    }

    /// A pan and a swipe that cannot share a touch are not warned about: other views, tool
    /// types, touch counts, or a pan that lets the swipe go first.
    @Test(arguments: [
        "[gesture.p]\ntype = \"pan\"\nview = \"left\"\n[gesture.s]\ntype = \"swipe\"\nview = \"right\"\n",
        "[gesture.p]\ntype = \"pan\"\nshould_receive_touch = { tool_types = [\"pen\"] }\n"
            + "[gesture.s]\ntype = \"swipe\"\nshould_receive_touch = { tool_types = [\"finger\"] }\n",
        "[gesture.p]\ntype = \"pan\"\nmin_touches = 2\n[gesture.s]\ntype = \"swipe\"\n",
        "[gesture.p]\ntype = \"pan\"\nthreshold = \"15mm\"\n[gesture.s]\ntype = \"swipe\"\n",
        "[gesture.p]\ntype = \"pan\"\nshould_begin = { region = { width = \"50%\" } }\n"
            + "[gesture.s]\ntype = \"swipe\"\nshould_receive_touch = { region = { x = \"50%\", width = \"50%\" } }\n",
    ])
    func aPanAndASwipeThatShareNoTouchAreNotWarnedAbout(_ gestures: String) {
        let views = "[view.left]\nframe = { width = \"50%\" }\n[view.right]\nframe = { x = \"50%\", width = \"50%\" }\n"
        let (status, warnings, _) = check(views + gestures)
        #expect(status == 0)
        #expect(warnings.isEmpty)
    }

    /// An edge pan on a view that lies against its edge is not warned about; one a little
    /// away from it either (the margin may reach it on a small panel).
    @Test func anEdgePanOnAViewAtItsEdgeIsNotWarnedAbout() {
        let (_, warnings, _) = check(
            """
            [view.strip]
            frame = { x = 780, width = 20 }
            [view.near]
            frame = { x = 10, width = 100 }
            [gesture.back]
            type = "edge-pan"
            view = "strip"
            edges = ["right"]
            [gesture.menu]
            type = "edge-pan"
            view = "near"
            edges = ["left"]

            """)
        #expect(warnings.isEmpty)
    }
}
