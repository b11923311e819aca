import GestureConfig
import GestureCore
import Glibc
import LinuxSystem
import TestSupport
import Testing
import TouchInput
import TouchPipeline

@testable import GesturePicture

/// The package root, from this file's location.
let packageRoot: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/GesturePictureTests/PictureTests.swift
    return parts.joined(separator: "/")
}()

/// A config with every kind of thing the picture draws: nested, hidden and disabled views,
/// an edge pan, a should_begin and a should_receive_touch region, a rotated device covering
/// part of the screen.
let layoutConfig = """
    [screen]
    width = 800
    height = 480

    [[device]]
    name = "panel*"
    rotation = 90
    output = { x = 0, y = 0, width = 400, height = 480 }
    size_mm = [150, 90]

    [view.sidebar]
    frame = { x = 0, y = 0, width = "25%", height = "100%" }
    enabled = false

    [view.content]
    frame = { x = "25%", y = 0, width = "75%", height = "100%" }

    [view.button]
    parent = "content"
    frame = { x = 20, y = 20, width = 100, height = 50 }

    [view.old]
    parent = "content"
    frame = { x = 200, y = 20, width = 100, height = 50 }
    hidden = true

    [gesture.back]
    type = "edge-pan"
    edges = ["left"]
    edge_margin = "5mm"

    [gesture.press]
    type = "tap"
    view = "button"
    taps = 2

    [gesture.flick]
    type = "swipe"
    view = "content"
    directions = ["up"]
    should_begin = { region = { x = "25%", y = "50%", width = "75%", height = "50%" } }

    [gesture.hold]
    type = "long-press"
    view = "content"
    should_receive_touch = { region = { x = 300, y = 100, width = 200, height = 100 } }
    """

@Suite struct ConfigPictureTests {
    let configuration: Configuration
    let svg: SVGNode

    init() throws {
        configuration = try ConfigLoader.parse(text: layoutConfig, file: "layout.toml")
        svg = try SVGNode.parse(Picture(configuration: configuration, title: "layout.toml").svg)
    }

    @Test func everyViewOnceWithItsFrame() throws {
        let views = svg.all(class: "view")
        #expect(views.count == configuration.model.views.count)
        for view in configuration.model.views {
            let found = views.filter { $0["data-view"] == view.name }
            try #require(found.count == 1, "view \(view.name) appears \(found.count) times")
            let rect = try #require(found[0].children.first { $0.name == "rect" })
            #expect(rect.number("x") == view.frame.x && rect.number("y") == view.frame.y, "\(view.name)")
            #expect(rect.number("width") == view.frame.width && rect.number("height") == view.frame.height, "\(view.name)")
        }
        // Nested: the button's frame is offset by its parent's.
        let button = try #require(views.first { $0["data-view"] == "button" }?.children.first { $0.name == "rect" })
        #expect(button.number("x") == 220 && button.number("y") == 20)
        #expect(views.first { $0["data-view"] == "old" }?["data-hidden"] == "true")
        #expect(views.first { $0["data-view"] == "sidebar" }?["data-enabled"] == "false")
        #expect(svg.allText.contains("sidebar (disabled)"))
        #expect(svg.allText.contains("old (hidden)"))
    }

    @Test func everyGestureOnceWithTypeViewAndKeyParameters() throws {
        let gestures = svg.all(class: "gesture")
        #expect(gestures.count == configuration.model.gestures.count)
        for spec in configuration.model.gestures {
            let found = gestures.filter { $0["data-gesture"] == spec.name }
            try #require(found.count == 1, "gesture \(spec.name) appears \(found.count) times")
            #expect(found[0]["data-type"] == spec.type.description)
            #expect(found[0]["data-view"] == configuration.model.views[spec.view].name)
        }
        let press = try #require(gestures.first { $0["data-gesture"] == "press" })
        #expect(press.allText.contains("taps 2"))
        #expect(svg.allText.contains("press: double tap"), "the view's label says what the gesture is")
        #expect(gestures.first { $0["data-gesture"] == "flick" }?.allText.contains("directions up") == true)
    }

    @Test func edgeMarginToScaleAlongItsEdge() throws {
        let bands = svg.all(class: "edge-margin")
        try #require(bands.count == 1)
        #expect(bands[0]["data-gesture"] == "back" && bands[0]["data-edge"] == "left")
        // 5 mm on a panel 90 mm across the 400 px of its output (turned a quarter): 22.22 px.
        let width = try #require(bands[0].number("width"))
        #expect(abs(width - 5 * 400 / 90) < 0.01)
        #expect(bands[0].number("x") == 0 && bands[0].number("height") == 480)
    }

    @Test func regionsAndDeviceOutput() throws {
        let regions = svg.all(class: "region")
        let begin = try #require(regions.first { $0["data-gesture"] == "flick" && $0["data-kind"] == "should_begin" })
        #expect([begin.number("x"), begin.number("y"), begin.number("width"), begin.number("height")] == [200, 240, 600, 240])
        let receive = try #require(regions.first { $0["data-gesture"] == "hold" && $0["data-kind"] == "should_receive_touch" })
        #expect([receive.number("x"), receive.number("y"), receive.number("width"), receive.number("height")] == [300, 100, 200, 100])
        #expect(regions.count == 2)
        let devices = svg.all(class: "device")
        try #require(devices.count == 1)
        #expect(devices[0]["data-rotation"] == "90")
        let output = try #require(devices[0].children.first { $0["class"] == "output" })
        #expect([output.number("x"), output.number("y"), output.number("width"), output.number("height")] == [0, 0, 400, 480])
        #expect(svg.allText.contains("rotated 90"))
    }

    @Test func textIsEscaped() throws {
        let text = layoutConfig.replacingOccurrences(of: "name = \"panel*\"", with: "name = \"<panel> & \\\"co\\\"*\"")
        let configuration = try ConfigLoader.parse(text: text, file: "a&b.toml")
        let svg = try SVGNode.parse(Picture(configuration: configuration, title: "a&b.toml").svg)
        #expect(svg.allText.contains("<panel> & \"co\"*"))
        #expect(svg.allText.contains("a&b.toml"))
    }
}

/// A recording over a config: the docs' pan-versus-swipe example (a flick from (600, 160)
/// to (330, 165), then a drag from (200, 330) to (600, 330) on an 800x480 screen).
@Suite struct RecordingPictureTests {
    static let config = packageRoot + "/docs/examples/pan-swipe.toml"
    static let recording = packageRoot + "/docs/examples/pan-swipe.evemu"

    @Test func contactsOnceWithTheirPathsInScreenPixels() throws {
        let configuration = try ConfigLoader.load(path: Self.config)
        let recorded = try EvemuRecording.read(path: Self.recording)
        let overlay = try #require(RecordingOverlay(configuration: configuration, recording: recorded, path: Self.recording))
        let svg = try SVGNode.parse(Picture(configuration: configuration, title: "pan-swipe", recording: overlay).svg)
        let contacts = svg.all(class: "contact")
        #expect(contacts.map { $0["data-index"] } == ["1", "2"])
        let expected: [((Double, Double), (Double, Double))] = [((600, 160), (330, 165)), ((200, 330), (600, 330))]
        for (contact, (down, lift)) in zip(contacts, expected) {
            let line = try #require(contact.children.first { $0["class"] == "trace" }?["points"])
            let points = line.split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
            let first = try #require(points.first)
            let last = try #require(points.last)
            // The panel's 4096 x 2304 units over 800 x 480 px: within a fifth of a pixel.
            #expect(abs(first[0] - down.0) < 0.3 && abs(first[1] - down.1) < 0.3, "\(first)")
            #expect(abs(last[0] - lift.0) < 0.3 && abs(last[1] - lift.1) < 0.3, "\(last)")
            #expect(contact["data-end"] == "ended")
            let dot = try #require(contact.children.first { $0["class"] == "down" })
            #expect(dot.number("cx") == first[0] && dot.number("cy") == first[1])
            // A tick every 50 ms: the flick lasts 120 ms (2 ticks), the drag 1.2 s (24).
            let ticks = contact.children.first { $0["class"] == "ticks" }?["d"]?.filter { $0 == "M" }.count
            #expect(ticks == (down.0 == 600 ? 2 : 24))
        }
    }

    @Test func outcomesAreReplaysEventsEachOnce() throws {
        let configuration = try ConfigLoader.load(path: Self.config)
        let recorded = try EvemuRecording.read(path: Self.recording)
        // The events as `gesturectl replay` prints them, from its own pipeline.
        let pipeline = GesturePipeline(configuration: configuration)
        let replay = try #require(VirtualReplay(recording: recorded, pipeline: pipeline))
        var stream = OutputRecorder()
        replay.run(into: &stream)
        let events = stream.events.filter { $0.state != .changed }
        let names = events.map { "\(configuration.model.gestures[$0.gesture].name) \($0.state)" }
        #expect(names == ["next_photo recognized", "scroll began", "scroll ended"])

        let overlay = try #require(RecordingOverlay(configuration: configuration, recording: recorded, path: Self.recording))
        let svg = try SVGNode.parse(Picture(configuration: configuration, title: "pan-swipe", recording: overlay).svg)
        let marks = svg.all(class: "mark")
        for event in events {
            let ms = Double(event.time - replay.origin) / 1000
            let found = marks.filter {
                $0["data-gesture"] == configuration.model.gestures[event.gesture].name && $0["data-state"] == event.state.description
                    && $0.number("data-ms") == ms
            }
            try #require(found.count == 1, "\(event)")
            #expect(abs(found[0].number("data-x")! - event.x) < 0.01 && abs(found[0].number("data-y")! - event.y) < 0.01)
        }
        #expect(marks.filter { $0["data-state"] != "failed" }.count == events.count)
        // The flick's swipe reason and the drag's swipe failure, from the trace.
        #expect(marks.contains { $0["data-gesture"] == "next_photo" && $0.title?.contains("swiped left") == true })
        let failures = marks.filter { $0["data-state"] == "failed" }
        #expect(failures.contains { $0.title?.contains("next_photo (swipe): ") == true && $0.title?.contains("scroll") == false })
        #expect(svg.allText.contains("1. 0.050 s next_photo recognized"))
    }
}

@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct CrowdedRecordingTests {
    /// 947 ghost contacts in 20 s (up to 10 at once): each one a trace, the file valid XML.
    @Test func hundredsOfContactsEachOnce() throws {
        let path = SharedRecordings.path("hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu")
        let recorded = try EvemuRecording.read(path: path)
        let normalizer = try #require(TouchNormalizer(device: DeviceID(0), info: recorded.info))
        var began: [Int32] = []
        for event in recorded.events where normalizer.feed(event) {
            began += normalizer.frame.contacts.filter { $0.phase == .began }.map(\.id)
        }
        let configuration = try ConfigLoader.load(path: packageRoot + "/config/gestures.toml")
        let overlay = try #require(RecordingOverlay(configuration: configuration, recording: recorded, path: path))
        let svg = try SVGNode.parse(Picture(configuration: configuration, title: "gestures.toml", recording: overlay).svg)
        let contacts = svg.all(class: "contact")
        #expect(began.count > 900)
        #expect(contacts.count == began.count)
        #expect(contacts.map { $0["data-id"].flatMap { Int32($0) } } == began.map { Optional($0) })
        #expect(Set(contacts.compactMap { $0["data-index"] }).count == contacts.count)
        #expect(svg.all(class: "filtered").isEmpty, "no health rule: nothing drawn as filtered")
    }

    /// With the ghost recipe, every ghost is drawn apart (grey, dashed) with its rule as hover
    /// text, and the legend says what grey means: the 947 `replay` reports, none shown.
    @Test func filteredContactsApartWithTheirRule() throws {
        let path = SharedRecordings.path("hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu")
        let recorded = try EvemuRecording.read(path: path)
        let shippedPath = packageRoot + "/config/gestures.toml"
        let (file, _) = try WholeFile.open(shippedPath)
        let shipped = String(decoding: try WholeFile.read(file, path: shippedPath, maximumSize: 1 << 20), as: UTF8.self)
        let text = shipped + "\n[[device]]\nname = \"*\"\n[device.health]\nmin_contact = \"60ms\"\n"
        let configuration = try ConfigLoader.parse(text: text, file: "gestures.toml")
        let overlay = try #require(RecordingOverlay(configuration: configuration, recording: recorded, path: path))
        #expect(overlay.contacts.count(where: { $0.filtered?.rule == .ghost && $0.filtered?.wasShown == false }) == 947)
        let svg = try SVGNode.parse(Picture(configuration: configuration, title: "gestures.toml", recording: overlay).svg)
        let filtered = svg.all(class: "contact filtered")
        #expect(filtered.count == 947)
        #expect(filtered.allSatisfy { $0["data-filtered"] == "ghost" })
        #expect(
            filtered.allSatisfy {
                $0.title?.hasSuffix("; filtered by touch health (ghost): never shown to gestures or the application") == true
            })
        #expect(svg.allText.contains("grey dashed: 947 contact(s) filtered by touch health"))  // wrapped after this
    }
}

@Suite struct RasterTests {
    @Test func pngThroughRsvgConvert() throws {
        let output = "/tmp/gestured-picture-test-\(getpid()).png"
        defer { unlink(output) }
        let result = try ChildProcess.run(
            ChildProcess.buildDirectory + "/gesturectl",
            arguments: [
                "render", RecordingPictureTests.config, "--recording",
                RecordingPictureTests.recording, "-o", output,
            ])
        guard Rasterizer.find() != nil else {
            // CI installs librsvg2-bin (make deps): there its absence is a failure.
            #expect(!SharedRecordings.isRequired, "rsvg-convert is missing under CI=true: make deps installs librsvg2-bin")
            #expect(result.status != 0)
            return
        }
        #expect(result.status == 0)
        let fd = open(output, O_RDONLY)
        try #require(fd >= 0, "no PNG written")
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 24)
        #expect(read(fd, &header, 24) == 24)
        #expect(Array(header[0..<8]) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        // IHDR: the SVG's own size.
        let configuration = try ConfigLoader.load(path: RecordingPictureTests.config)
        let svg = try SVGNode.parse(Picture(configuration: configuration, title: "x").svg)
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(Double(width) == svg.number("width")?.rounded(.up))
        #expect(height > 480)
    }

    @Test func missingRasterizerNamesThePackage() {
        #expect {
            try Rasterizer.png(svg: "<svg/>", to: "/tmp/never.png", searchPath: "/nonexistent")
        } throws: { error in
            "\(error)".contains("rsvg-convert") && "\(error)".contains("librsvg2-bin")
        }
    }
}

/// docs/img/ holds the pictures listed in docs/img/pictures.txt as `make docs-img` draws
/// them; a change to the renderer or to a config they show must come with fresh pictures.
@Suite struct DocsPicturesTests {
    @Test func docsPicturesAreUpToDate() throws {
        let list = try readText(packageRoot + "/docs/img/pictures.txt")
        let entries = list.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(entries.count >= 4)
        for entry in entries {
            let fields = entry.split(separator: " ").map(String.init)
            let (name, config) = (fields[0], fields[1])
            let configuration = try ConfigLoader.load(path: packageRoot + "/" + config)
            var overlay: RecordingOverlay?
            if fields.count > 2 {
                let recorded = try EvemuRecording.read(path: packageRoot + "/" + fields[2])
                overlay = RecordingOverlay(configuration: configuration, recording: recorded, path: fields[2])
            }
            let expected = Picture(configuration: configuration, title: config, recording: overlay).svg
            let committed = try readText(packageRoot + "/docs/img/\(name).svg")
            #expect(committed == expected, "docs/img/\(name).svg is out of date: run make docs-img")
        }
    }

    private func readText(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0, "cannot open \(path)")
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[0..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
