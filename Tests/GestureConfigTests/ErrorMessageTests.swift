import GestureConfig
import GestureCore
import Testing

/// Every error class of the issue, with its exact text and position.
@Suite struct ErrorMessageTests {
    @Test func syntaxErrorCarriesTheParsersLineAndColumn() throws {
        let text = Fixture.screen + "[view.a]\nframe = { x = 1, \n"
        #expect(throws: ConfigError.self) { try ConfigLoader.parse(text: text, file: "kiosk.toml") }
        do {
            _ = try ConfigLoader.parse(text: text, file: "kiosk.toml")
        } catch {
            guard case .syntax(let diagnostic) = error else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            #expect(diagnostic.location.position.line == 5)
            #expect(diagnostic.description.hasPrefix("kiosk.toml:5:"))
            #expect(diagnostic.description.contains(": error: "))
        }
    }

    @Test func duplicateKeyIsTheParsersSyntaxError() {
        let diagnostics = Fixture.diagnostics("[screen]\nwidth = 1\nwidth = 2\nheight = 1\n")
        #expect(
            diagnostics.map(\.description) == [
                "test.toml:3:9: error: Error while parsing key-value pair: cannot redefine existing integer 'width'"
            ])
    }

    /// toml++ asserts (aborts) on these headers instead of reporting them: they are caught first.
    @Test(arguments: ["[", "[=]", "[.a]", "[#]", "[[", "[ \t", "[ [a]"])
    func headersTOMLPlusPlusWouldAbortOn(header: String) {
        let messages = Fixture.messages(Fixture.screen + "\n" + header + "\n[gesture.a]\n")
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("test.toml:5:") == true)
        #expect(messages.first?.hasSuffix(": error: expected a table name after '[' (a bare key or a quoted one)") == true)
    }

    /// Malformed values inside arrays that trip toml++'s internal checks (an abort, or with
    /// NDEBUG undefined behaviour) are refused as syntax errors; the process goes on.
    @Test(arguments: ["a = [}\"x\"]", "a = { b = [}] }", "a = [ 1, } ]", "a = [[}]]"])
    func valuesTOMLPlusPlusWouldAbortOn(line: String) {
        let messages = Fixture.messages(Fixture.screen + line + "\n")
        #expect(messages.count == 1)
        #expect(messages.first?.contains(": error: ") == true, "\(messages)")
    }

    @Test func nulCharacterIsRefusedWhereItIs() {
        #expect(
            Fixture.messages(Fixture.screen + "a = \"x\0\"\n") == [
                "test.toml:4:7: error: NUL character in the file"
            ])
    }

    @Test func unknownKeyWithDidYouMean() {
        let text = Fixture.screen + "[daemon]\nlog_levle = \"info\"\n"
        let diagnostics = Fixture.diagnostics(text)
        #expect(
            diagnostics.map(\.description) == [
                "test.toml:5:1: error: daemon.log_levle: unknown key 'log_levle' (did you mean 'log_level'?)"
            ])
        #expect(diagnostics.first?.didYouMean == "log_level")
        #expect(diagnostics.first?.keyPath == ConfigKeyPath(keys: "daemon", "log_levle"))
    }

    @Test func unknownTopLevelTable() {
        #expect(
            Fixture.messages(Fixture.screen + "[gestures.a]\ntype = \"tap\"\n") == [
                "test.toml:4:2: error: gestures: unknown key 'gestures' (did you mean 'gesture'?)"
            ])
    }

    @Test func parameterOfAnotherTypeNamesItsOwner() {
        #expect(
            Fixture.messages(Fixture.screen + "[gesture.a]\ntype = \"tap\"\ndirections = [\"up\"]\n") == [
                "test.toml:6:1: error: gesture.a.directions: 'directions' is not a parameter of a tap gesture (it belongs to swipe)"
            ])
    }

    @Test func unknownViewAndGesture() {
        let text =
            Fixture.screen + """
                [view.map]
                frame = { width = "50%" }
                [gesture.a]
                type = "tap"
                view = "mpa"
                require_to_fail = ["doubletap"]
                [gesture.double_tap]
                type = "tap"
                taps = 2
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:8:1: error: gesture.a.view: unknown view 'mpa' (did you mean 'map'?)",
                "test.toml:9:1: error: gesture.a.require_to_fail: unknown gesture 'doubletap' (did you mean 'double_tap'?)",
            ])
    }

    @Test func unknownParentView() {
        #expect(
            Fixture.messages(Fixture.screen + "[view.a]\nparent = \"b\"\n") == [
                "test.toml:5:1: error: view.a.parent: unknown view 'b'"
            ])
    }

    @Test func viewParentCycle() {
        let text = Fixture.screen + "[view.a]\nparent = \"b\"\n[view.b]\nparent = \"a\"\n"
        #expect(
            Fixture.messages(text) == [
                "test.toml:5:1: error: view.a.parent: views' parents form a cycle: a -> b -> a: expected a tree of views under 'screen'",
                "test.toml:7:1: error: view.b.parent: views' parents form a cycle: b -> a -> b: expected a tree of views under 'screen'",
            ])
    }

    @Test func rectanglesOutsideTheirParentCanNeverBeTouched() {
        let text =
            Fixture.screen + """
                [view.panel]
                frame = { x = 100, width = 200 }
                [view.off]
                parent = "panel"
                frame = { x = "100%", width = 10 }
                [gesture.g]
                type = "tap"
                should_begin = { region = { y = 600 } }
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:8:1: error: view.off.frame: lies entirely outside view 'panel', so no touch can reach it: expected a rectangle overlapping view 'panel' (200x600 at (100, 0)), found 10x600 at (300, 0)",
                "test.toml:11:1: error: gesture.g.should_begin.region: lies entirely outside the screen, so no touch can reach it: expected a rectangle overlapping the screen (800x600 at (0, 0)), found 800x600 at (0, 600)",
            ])
        // With the screen itself invalid, frames are not judged against a stand-in.
        #expect(Fixture.messages(text.replacing("width = 800", with: "width = 0")).count == 1)
    }

    @Test func rootViewCannotBeDeclared() {
        #expect(
            Fixture.messages(Fixture.screen + "[view.screen]\nhidden = true\n") == [
                "test.toml:4:7: error: view.screen: 'screen' is the root view, the whole screen, and cannot be declared: expected another name"
            ])
    }

    @Test func duplicatesInListsAndDeviceRules() {
        let text =
            Fixture.screen + """
                [gesture.a]
                type = "pan"
                simultaneous_with = ["b", "b", "a"]
                [gesture.b]
                type = "pinch"
                [[device]]
                name = "ILITEK*"
                [[device]]
                name = "ILITEK*"
                rotation = 90
                [gesture.c]
                type = "swipe"
                directions = ["up", "up"]
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:6:1: error: gesture.a.simultaneous_with: 'b' is listed twice",
                "test.toml:6:1: error: gesture.a.simultaneous_with: a gesture cannot name itself: found \"a\"",
                "test.toml:11:3: error: device[1]: duplicate device rule: device[0] has the same match keys: expected one rule per touchscreen",
                "test.toml:16:1: error: gesture.c.directions: 'up' is listed twice",
            ])
    }

    @Test func failureRequirementCycleAcrossBothDeclarationDirections() {
        let text =
            Fixture.screen + """
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
                require_to_fail = ["single"]
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:6:1: error: gesture.single.require_to_fail: failure requirements form a cycle: single -> double -> triple -> single: expected gestures that wait for each other's failure in one direction only"
            ])
        // b waits for c (declared on c), c waits for b: the cycle is placed where its first
        // edge is declared, whichever side declared it.
        let reverse =
            Fixture.screen + """
                [gesture.a]
                type = "tap"
                require_to_fail = ["b"]
                [gesture.b]
                type = "tap"
                required_to_fail_by = ["a"]
                [gesture.c]
                type = "tap"
                required_to_fail_by = ["b"]
                require_to_fail = ["b"]
                """
        #expect(
            Fixture.messages(reverse) == [
                "test.toml:12:1: error: gesture.c.required_to_fail_by: failure requirements form a cycle: b -> c -> b: expected gestures that wait for each other's failure in one direction only"
            ])
    }

    @Test func negativeDuration() {
        let diagnostics = Fixture.diagnostics(Fixture.screen + "[gesture.a]\ntype = \"tap\"\nmin_press = \"-5ms\"\n")
        #expect(
            diagnostics.map(\.description) == [
                "test.toml:6:1: error: gesture.a.min_press: must not be negative: expected a duration such as \"300ms\" or \"0.5s\", found \"-5ms\""
            ])
        #expect(diagnostics.first?.expected == "a duration such as \"300ms\" or \"0.5s\"")
        #expect(diagnostics.first?.found == "\"-5ms\"")
    }

    @Test func bareNumberWhereAUnitIsNeeded() {
        #expect(
            Fixture.messages(Fixture.screen + "[gesture.a]\ntype = \"long-press\"\nmin_duration = 500\n") == [
                "test.toml:6:1: error: gesture.a.min_duration: a number needs a unit here: expected a duration such as \"300ms\" or \"0.5s\", found 500"
            ])
    }

    @Test func unknownUnit() {
        #expect(
            Fixture.messages(Fixture.screen + "[gesture.a]\ntype = \"pan\"\nthreshold = \"10in\"\n") == [
                "test.toml:6:1: error: gesture.a.threshold: unknown unit or malformed number: expected a length such as \"12mm\", \"10pt\" or \"40px\", found \"10in\""
            ])
    }

    @Test func minTouchesAboveMaxTouches() {
        #expect(
            Fixture.messages(Fixture.screen + "[gesture.a]\ntype = \"pan\"\nmin_touches = 3\nmax_touches = 2\n") == [
                "test.toml:6:1: error: gesture.a.min_touches: min_touches is more than max_touches: expected min_touches <= max_touches, found 3 > 2"
            ])
    }

    @Test func countOutOfRange() {
        #expect(
            Fixture.messages(Fixture.screen + "[gesture.a]\ntype = \"tap\"\ntaps = 0\ntouches = 50\n") == [
                "test.toml:6:1: error: gesture.a.taps: a tap needs at least one tap: expected an integer from 1 to 20, found 0",
                "test.toml:7:1: error: gesture.a.touches: out of range: expected an integer from 1 to 20, found 50",
            ])
    }

    @Test func recognizedOnAContinuousTypeSuggestsBegan() {
        let text = Fixture.screen + "[gesture.hold]\ntype = \"long-press\"\n[gesture.hold.on.recognized]\ncommand = \"true\"\n"
        let diagnostics = Fixture.diagnostics(text)
        #expect(
            diagnostics.map(\.description) == [
                "test.toml:6:18: error: gesture.hold.on.recognized: a long-press gesture is continuous: it has no 'recognized' state: expected on.began, on.changed, on.ended, on.cancelled (did you mean 'on.began'?)"
            ])
        #expect(diagnostics.first?.didYouMean == "on.began")
    }

    @Test func beganOnADiscreteType() {
        #expect(
            Fixture.messages(Fixture.screen + "[gesture.t]\ntype = \"tap\"\non.began.command = \"true\"\n") == [
                "test.toml:6:4: error: gesture.t.on.began: a tap gesture is discrete: it has no 'began' state: expected on.recognized"
            ])
    }

    @Test func unknownTemplatePlaceholder() {
        let text =
            Fixture.screen
            + "[gesture.z]\ntype = \"pinch\"\n[gesture.z.on.changed]\nsocket = \"/run/map.sock\"\nmessage = \"zoom {scal}\"\n"
        let diagnostics = Fixture.diagnostics(text)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.location.position == SourcePosition(line: 8, column: 1))
        #expect(
            diagnostics.first?.description.hasPrefix(
                "test.toml:8:1: error: gesture.z.on.changed.message: unknown placeholder '{scal}': expected placeholders among {t} {gesture}"
            ) == true)
        #expect(diagnostics.first?.didYouMean == "{scale}")
    }

    @Test func placeholderInACommandPointsToTheEnvironment() {
        let text = Fixture.screen + "[gesture.t]\ntype = \"tap\"\non.recognized.command = \"notify {x} ${HOME}\"\n"
        #expect(
            Fixture.messages(text) == [
                "test.toml:6:15: error: gesture.t.on.recognized.command: commands do not expand {x}: values are passed in environment variables, never spliced into the shell string: expected \"$GESTURE_X\", found \"{x}\""
            ])
    }

    @Test func touchDeliveryKeysAreBooleans() {
        let text = Fixture.screen + "[view.strip]\npassthrough = \"no\"\n[gesture.t]\ntype = \"tap\"\ncancels_touches = 0\n"
        #expect(
            Fixture.messages(text) == [
                "test.toml:5:1: error: view.strip.passthrough: wrong type: expected true or false, found \"no\"",
                "test.toml:8:1: error: gesture.t.cancels_touches: wrong type: expected true or false, found 0",
            ])
    }

    @Test func actionNeedsExactlyOneTarget() {
        let text =
            Fixture.screen + """
                [gesture.t]
                type = "tap"
                [[gesture.t.on.recognized]]
                cooldown = "1s"
                [[gesture.t.on.recognized]]
                command = "true"
                socket = "/run/x.sock"
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:6:16: error: gesture.t.on.recognized[0]: no action: expected exactly one of command = \"...\", socket = \"/path\", keys = \"KEY\" or mode = \"NAME\"",
                "test.toml:8:16: error: gesture.t.on.recognized[1]: both 'command' and 'socket': expected exactly one of command = \"...\", socket = \"/path\", keys = \"KEY\" or mode = \"NAME\"",
            ])
    }

    @Test func wrongTypeAndMissingEdges() {
        let text = Fixture.screen + "[gesture.e]\ntype = \"edge-pan\"\nenabled = \"yes\"\n"
        #expect(
            Fixture.messages(text) == [
                "test.toml:4:10: error: gesture.e.edges: missing: an edge pan needs the edges it starts from: expected an array of \"top\", \"left\", \"bottom\", \"right\"",
                "test.toml:6:1: error: gesture.e.enabled: wrong type: expected true or false, found \"yes\"",
            ])
    }

    @Test func unknownTypeAndEnumValues() {
        let text = Fixture.screen + "[gesture.s]\ntype = \"swipe\"\ndirections = [\"upp\"]\n[gesture.p]\ntype = \"pinsh\"\n"
        #expect(
            Fixture.messages(text) == [
                "test.toml:6:1: error: gesture.s.directions: unknown name 'upp': expected an array of \"right\", \"left\", \"up\", \"down\", \"up-right\", \"up-left\", \"down-right\", \"down-left\" (did you mean 'up'?)",
                "test.toml:8:1: error: gesture.p.type: unknown gesture type 'pinsh': expected tap, long-press, pan, swipe, pinch, rotation, edge-pan (did you mean 'pinch'?)",
            ])
    }

    @Test func missingScreen() {
        #expect(
            Fixture.messages("[gesture.a]\ntype = \"tap\"\n") == [
                "test.toml:1:1: error: screen: missing [screen] table: expected the logical screen size in px, e.g. [screen] width = 1920, height = 1080"
            ])
    }

    /// One pass: every problem of a file, in file order, whatever section it is in.
    @Test func everyProblemInOnePassInFileOrder() {
        let text = """
            [gesture.b]
            type = "pinch"
            threshold = "-1pt"
            [daemon]
            max_children = 0
            [screen]
            width = 800
            height = "tall"
            [gesture.a]
            type = "tap"
            tap_intervall = "1s"
            """
        let diagnostics = Fixture.diagnostics(text)
        #expect(diagnostics.map(\.location.position.line) == [3, 5, 8, 11])
        #expect(
            diagnostics.map(\.keyPath.description) == [
                "gesture.b.threshold", "daemon.max_children", "screen.height", "gesture.a.tap_intervall",
            ])
        #expect(diagnostics[3].didYouMean == "tap_interval")
    }
}
