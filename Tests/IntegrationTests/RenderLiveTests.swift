import GestureControl
import LinuxSystem
import TestSupport
import Testing

@Suite struct RenderLiveTests {
    /// `render --live` draws the running daemon's layout: after a kept `set` that moves a
    /// view and turns a gesture off, its picture is the one of a config written that way.
    @Test func renderLiveDrawsTheViewsWhereTheDaemonHasThem() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        let view = "[view.map]\nframe = { x = 0, y = 0, width = 400, height = 240 }\n[gesture.zoom]\ntype = \"pinch\"\nview = \"map\"\n"
        try writeText(TestConfig.tapAndPan() + view, to: config)
        let moved = dir.file("moved.toml")
        let movedView = view.replacingOccurrences(of: "x = 0, y = 0", with: "x = 400, y = 240")
        try writeText(
            TestConfig.tapAndPan().replacingOccurrences(of: "max_touches = 1\n", with: "max_touches = 1\nenabled = false\n") + movedView,
            to: moved)

        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let client = try daemon.client()
        _ = try client.request(
            .set, [("view", .string("map")), ("frame", .object([("x", .number(400)), ("y", .number(240))])), ("keep", .bool(true))])
        _ = try client.request(.set, [("gesture", .string("drag")), ("enabled", .bool(false)), ("keep", .bool(true))])

        let live = try ChildProcess.run(Binary.gesturectl, arguments: ["render", "--live", "--socket", daemon.socket, config])
        let written = try ChildProcess.run(Binary.gesturectl, arguments: ["render", moved])
        let asConfigured = try ChildProcess.run(Binary.gesturectl, arguments: ["render", config])
        #expect(live.status == 0 && written.status == 0)
        // The title names the file drawn; the rest is the layout.
        let layout = { (svg: String) in svg.replacingOccurrences(of: moved, with: config) }
        #expect(layout(written.output) == live.output)
        #expect(asConfigured.output != live.output)
    }
}
