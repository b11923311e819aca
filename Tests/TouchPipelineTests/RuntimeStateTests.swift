import GestureConfig
import GestureControl
import GestureCore
import TestSupport
import Testing

@testable import TouchPipeline

/// The runtime changes in force (`RuntimeState`) and their effect through the pipeline on a running engine.
@Suite struct RuntimeStateTests {
    static let app = RuntimeOwner.client(connection: 1, pid: 100, uid: 1000)
    static let otherApp = RuntimeOwner.client(connection: 2, pid: 200, uid: 1001)
    static let ms: Int64 = 1000

    /// `map` (left half) with `pin` inside it; a pan and a pinch on the map; an `admin` swipe
    /// off by default; modes `video` (map gestures off) and `maintenance` (admin on).
    static func configuration(renamed: Bool = false) throws -> Configuration {
        var m = ModelBuilder()
        m.view(renamed ? "chart" : "map", frame: Rect(x: 0, y: 0, width: 500, height: 600))
        m.view("pin", parent: renamed ? "chart" : "map", frame: Rect(x: 100, y: 100, width: 50, height: 50))
        m.gesture("map_pan", .pan, on: renamed ? "chart" : "map")
        m.gesture("map_pinch", .pinch, on: renamed ? "chart" : "map")
        m.gesture("admin", .swipe) { $0.enabled = false }
        var configuration = Configuration(
            daemon: DaemonSettings(), model: try m.build(), devices: [], actions: Array(repeating: GestureActions(), count: 3))
        configuration.modes = [
            ModeSpec(name: "video", gestures: [.init(index: 0, enabled: false), .init(index: 1, enabled: false)]),
            ModeSpec(name: "maintenance", gestures: [.init(index: 2, enabled: true)]),
        ]
        if renamed { configuration.modes.removeFirst() }
        return configuration
    }

    /// The `ControlError` that `body` throws; nil, with an issue recorded, when it throws none
    /// or another error. (`#expect(throws:)` returns the error only from Swift 6.1 on, and
    /// Debian 13's Swift is 6.0.3.)
    static func runtimeError<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) -> ControlError? {
        do {
            _ = try body()
            Issue.record("no ControlError was thrown", sourceLocation: sourceLocation)
        } catch let error as ControlError {
            return error
        } catch {
            Issue.record("\(error) was thrown, not a ControlError", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// A runtime command as the control socket reads it.
    static func command(_ json: String) throws -> RuntimeCommand {
        let request = try JSONParser.parse(json)
        let command = try #require(request["cmd"]?.stringValue.flatMap(ControlCommand.init(rawValue:)))
        guard case .daemon(.runtime(let runtime)) = try command.request(request) else {
            throw ControlError(code: "test", message: "not a runtime command")
        }
        return runtime
    }

    static func set(_ json: String) throws -> SetRequest {
        guard case .set(let request) = try command(json) else { throw ControlError(code: "test", message: "not a set") }
        return request
    }

    // MARK: the state

    @Test func unknownNamesAreRefusedWithADidYouMean() throws {
        var state = RuntimeState(configuration: try Self.configuration())
        let gesture = Self.runtimeError {
            try state.apply(SetRequest(target: .gesture("map_pam"), enabled: false), by: Self.app, at: 0)
        }
        #expect(gesture?.code == "unknown-gesture")
        #expect(gesture?.message == "unknown gesture 'map_pam'; did you mean 'map_pan'? (known: map_pan, map_pinch, admin)")
        let view = Self.runtimeError {
            try state.apply(SetRequest(target: .view("mpa"), enabled: false), by: Self.app, at: 0)
        }
        #expect(view?.code == "unknown-view")
        let mode = Self.runtimeError { try state.switchMode(to: "maintenance2", until: nil, by: Self.app, at: 0) }
        #expect(mode?.code == "unknown-mode")
        #expect(mode?.message == "unknown mode 'maintenance2'; did you mean 'maintenance'? (known: video, maintenance)")
        #expect(state.changes.isEmpty && state.mode == nil)
    }

    @Test func aMovedViewMovesItsSubviewsAndPercentagesFollowTheParent() throws {
        var state = RuntimeState(configuration: try Self.configuration())
        try state.apply(try Self.set(#"{"cmd":"set","view":"map","frame":{"x":"50%","width":"50%"}}"#), by: Self.app, at: 0)
        let layout = state.layout()
        #expect(layout.frames[1] == Rect(x: 500, y: 0, width: 500, height: 600))
        #expect(layout.frames[2] == Rect(x: 600, y: 100, width: 50, height: 50))  // pin: same offset and size
        let zero = Self.runtimeError {
            try state.apply(try Self.set(#"{"cmd":"set","view":"pin","frame":{"width":0}}"#), by: Self.app, at: 0)
        }
        #expect(zero?.code == "bad-request")
        let root = Self.runtimeError {
            try state.apply(try Self.set(#"{"cmd":"set","view":"root","frame":{"x":1}}"#), by: Self.app, at: 0)
        }
        #expect(root?.message == "set: 'root' is the root view, the whole screen: its frame cannot change")
    }

    @Test func configThenModeThenExplicitChangesInOrder() throws {
        var state = RuntimeState(configuration: try Self.configuration())
        #expect(state.layout().gestures == [true, true, false])
        _ = try state.switchMode(to: "video", until: nil, by: Self.app, at: 0)
        #expect(state.layout().gestures == [false, false, false])
        try state.apply(SetRequest(target: .gesture("map_pan"), enabled: true), by: Self.otherApp, at: 1)
        #expect(state.layout().gestures == [true, false, false])
        try state.apply(SetRequest(target: .gesture("map_pan"), enabled: false), by: Self.app, at: 2)
        #expect(state.layout().gestures == [false, false, false])  // the later change wins
        _ = try state.switchMode(to: nil, until: nil, by: Self.app, at: 3)
        #expect(state.layout().gestures == [false, true, false])
    }

    @Test func undoDropsAnOwnersChangesButNotKeptOnes() throws {
        var state = RuntimeState(configuration: try Self.configuration())
        try state.apply(SetRequest(target: .gesture("map_pan"), enabled: false), by: Self.app, at: 0)
        try state.apply(SetRequest(target: .gesture("map_pinch"), enabled: false, keep: true), by: Self.app, at: 0)
        try state.apply(SetRequest(target: .view("pin"), enabled: false), by: Self.otherApp, at: 0)
        _ = try state.switchMode(to: "maintenance", until: nil, by: Self.app, at: 0)
        let (removed, mode) = state.undo(owner: Self.app)
        #expect(removed.map(\.target) == [.gesture("map_pan")])
        #expect(mode == ModeChange(from: "maintenance", to: nil, until: nil, cause: .ownerGone(Self.app)))
        #expect(state.changes.map(\.target) == [.gesture("map_pinch"), .view("pin")])
        // The application restarts (a new connection, same uid): its reset drops the kept one.
        let restarted = RuntimeOwner.client(connection: 9, pid: 101, uid: 1000)
        #expect(state.reset(owner: restarted, all: false).map(\.target) == [.gesture("map_pinch")])
        #expect(state.changes.map(\.target) == [.view("pin")])
        #expect(state.reset(owner: restarted, all: true).map(\.target) == [.view("pin")])
    }

    @Test func aKeptModeOutlivesItsConnection() throws {
        var state = RuntimeState(configuration: try Self.configuration())
        _ = try state.switchMode(to: "video", until: nil, keep: true, by: Self.app, at: 0)
        #expect(state.undo(owner: Self.app).mode == nil)
        #expect(state.mode?.name == "video")
    }

    @Test func aModeWithForEndsByItself() throws {
        var state = RuntimeState(configuration: try Self.configuration())
        let began = try state.switchMode(to: "maintenance", until: 60_000 * Self.ms, by: .action(gesture: "secret"), at: 0)
        #expect(
            began == ModeChange(from: nil, to: "maintenance", until: 60_000 * Self.ms, cause: .switched(by: .action(gesture: "secret"))))
        #expect(state.nextDeadline == 60_000 * Self.ms)
        #expect(state.advance(to: 59_999 * Self.ms) == nil)
        #expect(state.advance(to: 60_000 * Self.ms) == ModeChange(from: "maintenance", to: nil, until: nil, cause: .expired))
        #expect(state.mode == nil && state.nextDeadline == nil)
    }

    @Test func aRebaseKeepsChangesForNamesThatStillExist() throws {
        var state = RuntimeState(configuration: try Self.configuration())
        try state.apply(SetRequest(target: .gesture("map_pan"), enabled: false), by: Self.app, at: 0)
        try state.apply(SetRequest(target: .view("map"), enabled: false), by: Self.app, at: 0)
        _ = try state.switchMode(to: "video", until: nil, by: Self.app, at: 0)
        let (dropped, mode) = state.rebase(onto: try Self.configuration(renamed: true))
        #expect(dropped.map(\.target) == [.view("map")])
        #expect(mode == ModeChange(from: "video", to: nil, until: nil, cause: .removed))
        #expect(state.changes.map(\.target) == [.gesture("map_pan")])
        #expect(state.layout().gestures == [false, true, false])
    }

    @Test func changesInForceAreBounded() throws {
        var m = ModelBuilder()
        for i in 0...RuntimeState.maximumChanges { m.gesture("g\(i)", .tap) }
        var state = RuntimeState(
            configuration: Configuration(daemon: DaemonSettings(), model: try m.build(), devices: [], actions: []))
        for i in 0..<RuntimeState.maximumChanges {
            try state.apply(SetRequest(target: .gesture("g\(i)"), enabled: false), by: Self.app, at: 0)
        }
        // The owner's change of a target it changed already replaces it: no new entry.
        try state.apply(SetRequest(target: .gesture("g0"), enabled: true), by: Self.app, at: 1)
        let error = Self.runtimeError {
            try state.apply(SetRequest(target: .gesture("g\(RuntimeState.maximumChanges)"), enabled: false), by: Self.app, at: 2)
        }
        #expect(error?.code == "too-many-changes")
        #expect(state.changes.count == RuntimeState.maximumChanges)
        #expect(state.changes.last?.target == .gesture("g0") && state.changes.last?.enabled == true)
    }

    // MARK: through the pipeline

    @Test func aSetEndsARunningPanAndItsConnectionClosingUndoesIt() throws {
        let pipeline = GesturePipeline(configuration: try Self.configuration())
        var b = FrameBuilder()
        b.down(1, x: 100, y: 300, at: 0)
        b.drag(1, toX: 300, toY: 300, from: 0, duration: 300 * Self.ms, steps: 10)
        for frame in b.frames { pipeline.handle(frame) }
        #expect(pipeline.drained().events.first?.state == .began)

        let update = try pipeline.perform(
            try Self.command(#"{"cmd":"set","gesture":"map_pan","enabled":false}"#), by: Self.app, at: 400 * Self.ms)
        let stream = pipeline.drained()
        #expect(stream.events.map(\.state) == [.cancelled])
        #expect(stream.events.first?.time == 400 * Self.ms)
        #expect(update.layout == [LayoutChange(target: .gesture("map_pan"), enabled: false)])
        #expect(update.added?.owner == Self.app && update.added?.since == 400 * Self.ms)
        // The change, then what it cancelled.
        guard case .runtime(let streamed) = stream.outputs.first, case .event = stream.outputs.last else {
            Issue.record("expected the change, then the cancellation: \(stream.outputs)")
            return
        }
        #expect(streamed == update)
        #expect(pipeline.engine.model.gestures[0].enabled == false)
        #expect(pipeline.configuration.model.gestures[0].enabled == true)  // the config stays as written

        let undone = pipeline.ownerLeft(Self.app, at: 500 * Self.ms)
        #expect(undone.layout == [LayoutChange(target: .gesture("map_pan"), enabled: true)])
        #expect(undone.removed.map(\.target) == [.gesture("map_pan")])
        #expect(pipeline.engine.model.gestures[0].enabled == true)
        // Nothing in force: a second close changes nothing and reports nothing.
        #expect(pipeline.ownerLeft(Self.app, at: 600 * Self.ms).isEmpty)
        #expect(pipeline.drained().runtime == [undone])
    }

    @Test func aModeEndsByItselfInAdvanceAndTheViewMovesInTheEngine() throws {
        let pipeline = GesturePipeline(configuration: try Self.configuration())
        try pipeline.perform(
            try Self.command(#"{"cmd":"mode","mode":"maintenance","for":"60s"}"#), by: .action(gesture: "secret"), at: 1_000 * Self.ms)
        #expect(pipeline.engine.model.gestures[2].enabled == true)
        #expect(pipeline.nextDeadline == 61_000 * Self.ms)
        _ = pipeline.drained()
        pipeline.advance(to: 70_000 * Self.ms)
        let updates = pipeline.drained().runtime
        #expect(updates.count == 1)
        #expect(updates.first?.time == 61_000 * Self.ms)
        #expect(updates.first?.mode?.cause == .expired)
        #expect(updates.first?.layout == [LayoutChange(target: .gesture("admin"), enabled: false)])
        #expect(pipeline.engine.model.gestures[2].enabled == false)

        try pipeline.perform(try Self.command(#"{"cmd":"set","view":"map","frame":{"x":500}}"#), by: Self.app, at: 71_000 * Self.ms)
        #expect(pipeline.engine.model.views[1].frame == Rect(x: 500, y: 0, width: 500, height: 600))  // size kept
        #expect(pipeline.engine.model.views[2].frame == Rect(x: 600, y: 100, width: 50, height: 50))
    }

    @Test func aReloadKeepsTheChangesWhoseNamesStayAndReportsTheOthers() throws {
        let pipeline = GesturePipeline(configuration: try Self.configuration())
        try pipeline.perform(.set(SetRequest(target: .gesture("map_pan"), enabled: false)), by: Self.app, at: 0)
        try pipeline.perform(.set(SetRequest(target: .view("map"), enabled: false)), by: Self.app, at: 0)
        _ = pipeline.drained()
        let reloaded = pipeline.reload(try Self.configuration(renamed: true), at: 1_000 * Self.ms)
        #expect(reloaded.dropped.map(\.target) == [.view("map")])
        #expect(pipeline.drained().runtime == [reloaded])
        #expect(pipeline.engine.model.gestures[0].enabled == false)
        #expect(pipeline.engine.model.views[1].enabled == true)
    }

    /// The stream's order (docs/SEMANTICS.md, "The output stream"): a pan whose `began`
    /// action switches to `video`, which turns the pan off: its event, then the mode change,
    /// then the cancellation the change made.
    @Test func anEventComesBeforeTheModeChangeItsActionMadeAndThatBeforeWhatItCancelled() throws {
        var configuration = try Self.configuration()
        configuration.actions[0].byState[.began] = [ActionSpec(kind: .mode("video", duration: nil))]
        let pipeline = GesturePipeline(configuration: configuration)
        var b = FrameBuilder()
        b.down(1, x: 100, y: 300, at: 0)
        b.drag(1, toX: 300, toY: 300, from: 0, duration: 300 * Self.ms, steps: 10)
        for frame in b.frames { pipeline.handle(frame) }
        let lines = pipeline.drained().outputs.map { output -> String in
            switch output {
            case .event(let e): "\(configuration.model.gestures[e.gesture].name) \(e.state)"
            case .runtime(let u): "mode \(u.mode?.to ?? "none") by \(u.owner.map(\.description) ?? "-")"
            default: "other"
            }
        }
        #expect(lines == ["map_pan began", "mode video by action of 'map_pan'", "map_pan cancelled"], "\(lines)")
    }
}

@Suite struct RuntimeUpdateJSONTests {
    @Test func theReplyAndTheStreamLinesSayWhatChanged() throws {
        let pipeline = GesturePipeline(configuration: try RuntimeStateTests.configuration())
        let seconds = { (t: Int64) in Double(t) / 1_000_000 }
        let set = try pipeline.perform(
            try RuntimeStateTests.command(#"{"cmd":"set","view":"map","enabled":false,"frame":{"x":"50%"}}"#),
            by: RuntimeStateTests.app, at: 0)
        #expect(
            set.reply(seconds: seconds).text
                == #"{"changed":[{"view":"map","enabled":false,"frame":[500,0,500,600]},{"view":"pin","frame":[600,100,50,50]}]}"#)
        #expect(
            set.streamLines(seconds: seconds).map(\.text) == [
                #"{"changed":{"view":"map","enabled":false,"frame":[500,0,500,600]},"by":"pid 100 uid 1000 (connection 1)"}"#,
                #"{"changed":{"view":"pin","frame":[600,100,50,50]},"by":"pid 100 uid 1000 (connection 1)"}"#,
            ])
        let mode = try pipeline.perform(
            try RuntimeStateTests.command(#"{"cmd":"mode","mode":"maintenance","for":"60s"}"#), by: .action(gesture: "secret"),
            at: 1_500_000)
        #expect(
            mode.reply(seconds: seconds).text
                == #"{"changed":[{"gesture":"admin","enabled":true}],"mode":{"mode":"maintenance","from":null,"until":61.500000,"cause":"switched","by":"action of 'secret'"}}"#
        )
        let reset = try pipeline.perform(.reset(all: true), by: RuntimeStateTests.otherApp, at: 2_000_000)
        #expect(reset.reply(seconds: seconds).text.hasSuffix(#""undone":[{"view":"map"}]}"#))
    }
}
