import GestureConfig
import GestureCore
import Testing

/// Every key of the schema, read into the right field with the right unit.
@Suite struct SchemaTests {
    static let everything = """
        [daemon]
        socket = "/run/g.sock"
        socket_mode = "0640"
        socket_group = "root"
        log_level = "debug"
        shell = "/bin/bash"
        command_timeout = "3s"
        kill_grace = "500ms"
        max_children = 4
        subscriber_buffer = 8192
        socket_queue = 8
        environment = { B = "2", A = "1" }
        [screen]
        width = "1000px"
        height = 500
        [[device]]
        name = "eGalax*"
        vendor = "0eef"
        product = 0x72fa
        path = "platform-i8042"
        property = { name = "ID_MODEL", value = "touch" }
        rotation = 270
        flip_x = true
        flip_y = true
        calibration = [0, 1, 0, -1, 0, 1.0]
        output = { x = "50%", width = "50%" }
        size_mm = [200.5, 100]
        [view.panel]
        frame = { x = 100, y = "10%", width = "400px", height = "50%" }
        [view.button]
        parent = "panel"
        frame = { x = "50%", y = 10, width = "25%", height = 20 }
        enabled = false
        hidden = true
        [gesture.lp]
        type = "long-press"
        view = "button"
        taps = 1
        touches = 2
        min_duration = "1.5s"
        allowable_movement = "2mm"
        enabled = false
        cannot_prevent = ["edge"]
        cannot_be_prevented_by = ["edge"]
        should_begin = { min_touches = 2, region = { width = "50%" }, devices = ["eGalax*"] }
        [gesture.lp.should_receive_touch]
        tool_types = ["pen", "finger"]
        views = ["button"]
        region = { y = 250 }
        devices = "eGalax*"
        [[gesture.lp.on.began]]
        command = "a"
        timeout = "1s"
        [[gesture.lp.on.began]]
        socket = "/run/b.sock"
        cooldown = "2s"
        [gesture.edge]
        type = "edge-pan"
        edges = ["left", "top"]
        edge_margin = "8px"
        min_touches = 2
        max_touches = 3
        threshold = "1.5mm"
        required_to_fail_by = ["lp"]
        [gesture.turn]
        type = "rotation"
        threshold = "10deg"
        [gesture.fling]
        type = "swipe"
        directions = ["left", "down"]
        min_speed = 120
        """

    @Test func everyKeyLandsInItsField() throws {
        let configuration = try ConfigLoader.parse(text: Self.everything, file: "all.toml")
        var daemon = DaemonSettings()
        daemon.socketPath = "/run/g.sock"
        daemon.socketMode = 0o640
        daemon.socketGroup = "root"
        daemon.logLevel = "debug"
        daemon.shell = "/bin/bash"
        daemon.commandTimeout = 3_000_000
        daemon.killGrace = 500_000
        daemon.maxChildren = 4
        daemon.subscriberBuffer = 8192
        daemon.socketQueue = 8
        daemon.environment = [EnvironmentEntry(name: "A", value: "1"), EnvironmentEntry(name: "B", value: "2")]
        #expect(configuration.daemon == daemon)

        let rule = try #require(configuration.devices.first)
        #expect(
            rule.match
                == DeviceMatch(
                    name: "eGalax*", vendor: 0x0eef, product: 0x72fa, path: "platform-i8042",
                    property: EnvironmentEntry(name: "ID_MODEL", value: "touch")))
        #expect(
            rule.mapping
                == DeviceMapping(
                    rotation: 270, flipX: true, flipY: true, calibration: [0, 1, 0, -1, 0, 1],
                    output: Rect(x: 500, y: 0, width: 500, height: 500),
                    sizeMM: (200.5, 100)))

        let model = configuration.model
        #expect(model.views[1] == ViewSpec(name: "panel", parent: 0, frame: Rect(x: 100, y: 50, width: 400, height: 250)))
        #expect(
            model.views[2]
                == ViewSpec(
                    name: "button", parent: 1, frame: Rect(x: 300, y: 60, width: 100, height: 20),
                    enabled: false, hidden: true))

        let lp = model.gestures[0]
        var parameters = LongPressParameters()
        parameters.taps = 1
        parameters.touches = 2
        parameters.minimumPressDuration = 1_500_000
        parameters.allowableMovement = .millimeters(2)
        #expect(
            lp
                == GestureSpec(
                    name: "lp", view: 2, parameters: .longPress(parameters), enabled: false,
                    cannotPrevent: [1], cannotBePreventedBy: [1],
                    shouldBegin: ShouldBegin(
                        touches: 2...Int.max, region: Rect(x: 0, y: 0, width: 500, height: 500),
                        devices: ["eGalax*"]),
                    shouldReceiveTouch: ShouldReceiveTouch(
                        toolTypes: [.pen, .finger], hitViews: [2],
                        region: Rect(x: 0, y: 250, width: 1000, height: 500),
                        devices: ["eGalax*"])))
        #expect(
            configuration.actions[0].byState == [
                .began: [
                    ActionSpec(kind: .command("a"), timeout: 1_000_000),
                    ActionSpec(kind: .socket(path: "/run/b.sock", message: nil, datagram: false), cooldown: 2_000_000),
                ]
            ])

        let edge = model.gestures[1]
        #expect(edge.edgePan.edges == [.left, .top])
        #expect(edge.edgePan.edgeMargin == .pixels(8))
        #expect(edge.edgePan.pan.minimumTouches == 2 && edge.edgePan.pan.maximumTouches == 3)
        #expect(edge.edgePan.pan.threshold == .millimeters(1.5))
        #expect(edge.requiredToFailBy == [0])
        #expect(model.failureRequirements(of: 0) == [1])
        #expect(model.gestures[2].rotation.threshold == 10 * .pi / 180)
        #expect(model.gestures[3].swipe.directions == [.left, .down])
        #expect(model.gestures[3].swipe.minSpeed == 120)
    }

    /// Parents come before children in the model whatever the file order; siblings keep
    /// the file's order, so the later one stays on top.
    @Test func viewsAreOrderedParentsFirstSiblingsInFileOrder() throws {
        let text =
            Fixture.screen + """
                [view.child]
                parent = "late_parent"
                frame = { x = "50%" }
                [view.top_sibling_first]
                frame = { width = 10 }
                [view.late_parent]
                frame = { x = 100, width = 200 }
                [view.top_sibling_second]
                frame = { width = 20 }
                """
        let model = try ConfigLoader.parse(text: text, file: "views.toml").model
        #expect(model.views.map(\.name) == ["screen", "top_sibling_first", "late_parent", "child", "top_sibling_second"])
        #expect(model.views.map(\.parent) == [nil, 0, 0, 2, 0])
        #expect(model.views[3].frame == Rect(x: 200, y: 0, width: 200, height: 600))  // 100% of the parent, offset by half of it
    }

    /// `ignore = true` in a device rule: the first rule that matches decides, so a rule
    /// that ignores one panel goes before a catch-all.
    @Test func deviceRulesThatIgnoreATouchscreen() throws {
        let text =
            Fixture.screen + """
                [[device]]
                name = "Wacom*"
                ignore = true
                [[device]]
                rotation = 90
                """
        let configuration = try ConfigLoader.parse(text: text, file: "devices.toml")
        #expect(configuration.devices.map(\.ignore) == [true, false])
        #expect(configuration.rule(name: "Wacom HID 52A2 Finger", vendor: 0x56a, product: 0x52a2, devnode: nil, properties: [:]) == 0)
        #expect(configuration.rule(name: "ILITEK ILITEK-TP", vendor: 0x222a, product: 1, devnode: nil, properties: [:]) == 1)
        #expect(
            Fixture.messages(Fixture.screen + "[[device]]\nignore = \"yes\"\n")
                == ["test.toml:5:1: error: device[0].ignore: wrong type: expected true or false, found \"yes\""])
    }

    @Test func daemonAndActionMistakes() {
        let text =
            Fixture.screen + """
                [daemon]
                socket = "run/g.sock"
                socket_mode = 0o1777
                environment = { GESTURE_X = "1", "1BAD" = "x" }
                [[device]]
                vendor = 0x12345
                rotation = 45
                calibration = [1, 0, 0]
                [gesture.t]
                type = "tap"
                [gesture.t.on.recognized]
                command = "true"
                message = "{x}"
                """
        #expect(
            Fixture.messages(text) == [
                "test.toml:5:1: error: daemon.socket: not an absolute path: expected an absolute path, found \"run/g.sock\"",
                "test.toml:6:1: error: daemon.socket_mode: not a permission mode: expected a mode such as 0o660 or \"0660\", found 0o1777",
                "test.toml:7:1: error: daemon.environment.1BAD: not a valid environment variable name: expected letters, digits and '_', not starting with a digit, found \"1BAD\"",
                "test.toml:7:1: error: daemon.environment.GESTURE_X: names starting with GESTURE_ are reserved for the event's values",
                "test.toml:9:1: error: device[0].vendor: not a 16-bit id: expected a 16-bit id such as 0x222a or \"222a\", found 74565",
                "test.toml:10:1: error: device[0].rotation: not a quarter turn: expected 0, 90, 180 or 270, found 45",
                "test.toml:11:1: error: device[0].calibration: needs exactly 6 numbers: expected 6 numbers [a, b, c, d, e, f] as libinput's LIBINPUT_CALIBRATION_MATRIX, found an array",
                "test.toml:16:1: error: gesture.t.on.recognized.message: only socket actions take 'message'",
            ])
    }
}
