import GestureConfig  // parameterValues: the settings in config syntax, from the schema
import GestureCore

/// `gesturectl render`: a config (and optionally what a recording did on it) as an SVG
/// picture. The screen is drawn to scale at 1 unit = 1 screen px inside a group translated
/// by the margin, so every element on the screen carries screen coordinates; the legend
/// (gestures with their parameters, the recording's outcomes) stands to its right.
///
/// Elements a reader or a test looks for carry classes and data attributes: each view is
/// one `g.view[data-view]` with its frame as a `rect`, each gesture one
/// `g.gesture[data-gesture]` (its legend entry), each contact one `g.contact[data-index]`
/// with its path as `polyline.trace`, each outcome one `g.mark[data-gesture][data-state]`.
public struct Picture {
    let configuration: Configuration
    let title: String
    let recording: RecordingOverlay?
    let style: PictureStyle
    /// The device geometry lengths (edge margins) are converted with, and where it came from.
    let geometry: DeviceGeometry

    /// `title` heads the picture (the config's path).
    public init(configuration: Configuration, title: String, recording: RecordingOverlay? = nil) {
        self.configuration = configuration
        self.title = title
        self.recording = recording
        let screen = configuration.model.screen
        style = PictureStyle(screen: screen.width, screen.height)
        // Without a recording, lengths in mm convert as for a device that reports no
        // resolution: the first rule's size_mm, else 1 pt = 1 px.
        geometry =
            recording?.geometry
            ?? DeviceGeometry(
                screen: screen, x: AxisRange(minimum: 0, maximum: 0), y: AxisRange(minimum: 0, maximum: 0),
                mapping: configuration.devices.first?.mapping ?? .identity)
    }

    var model: GestureModel { configuration.model }

    /// The screen's top-left corner in the picture.
    var screenOrigin: (x: Double, y: Double) { (style.pad, style.pad + style.lineHeight * 2.4) }

    /// The legend's left edge and width.
    var legendX: Double { screenOrigin.x + model.screen.width + style.pad * 2 }
    var legendWidth: Double { style.font * 30 }

    /// The whole SVG document.
    public var svg: String {
        let legend = Legend(picture: self)
        let screenBottom = screenOrigin.y + model.screen.height + style.pad
        let height = max(screenBottom, screenOrigin.y + legend.height + style.pad)
        var doc = SVGDocument(width: legendX + legendWidth + style.pad, height: height)
        doc.raw(
            "<defs><pattern id=\"disabled\" width=\"12\" height=\"12\" patternUnits=\"userSpaceOnUse\" "
                + "patternTransform=\"rotate(45)\"><rect width=\"12\" height=\"12\" fill=\"#d0d0d0\"/>"
                + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"12\" stroke=\"#8a8a8a\" stroke-width=\"4\"/></pattern>"
                + "<pattern id=\"edge\" width=\"10\" height=\"10\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(-45)\">"
                + "<rect width=\"10\" height=\"10\" fill=\"\(PictureStyle.edgeColor)\" fill-opacity=\"0.25\"/>"
                + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"10\" stroke=\"\(PictureStyle.edgeColor)\" stroke-width=\"4\" stroke-opacity=\"0.7\"/>"
                + "</pattern></defs>")
        doc.element("rect", ["x": 0, "y": 0, "width": .n(doc.width), "height": .n(doc.height), "fill": "#ffffff"])
        drawTitle(into: &doc)
        let origin = screenOrigin
        doc.group([
            "class": "screen", "transform": .s("translate(\(SVGValue.format(origin.x)),\(SVGValue.format(origin.y)))"),
            "font-family": .s(PictureStyle.fontFamily),
        ]) { doc in
            var screen = ScreenPainter(picture: self)
            screen.draw(into: &doc)
        }
        doc.group([
            "class": "legend", "transform": .s("translate(\(SVGValue.format(legendX)),\(SVGValue.format(origin.y)))"),
            "font-family": .s(PictureStyle.fontFamily),
        ]) { doc in
            legend.draw(into: &doc)
        }
        return doc.text
    }

    private func drawTitle(into doc: inout SVGDocument) {
        let screen = model.screen
        var line = "\(title): screen \(SVGValue.format(screen.width))\u{00d7}\(SVGValue.format(screen.height)) px"
        var second = unitsNote
        if let recording {
            let file = recording.path.split(separator: "/").last.map(String.init) ?? recording.path
            line += ", recording \(file)"
            second =
                "\(recording.deviceName): \(recording.contacts.count) contact\(recording.contacts.count == 1 ? "" : "s") "
                + "in \(Self.seconds(recording.duration)) s; " + second
        }
        doc.element(
            "text",
            [
                "x": .n(style.pad), "y": .n(style.pad + style.font), "font-size": .n(style.font * 1.15),
                "font-weight": "bold", "font-family": .s(PictureStyle.fontFamily),
            ], text: line)
        doc.element(
            "text",
            [
                "x": .n(style.pad), "y": .n(style.pad + style.font + style.lineHeight * 1.1),
                "font-size": .n(style.small), "fill": "#555555", "font-family": .s(PictureStyle.fontFamily),
            ],
            text: second)
    }

    /// How millimetres became pixels here (edge margins depend on it).
    var unitsNote: String {
        let perMM = 1 / geometry.mmPerPixelX
        var note = "lengths: \(SVGValue.format(perMM)) px per mm (\(geometry.unitSource)"
        if recording == nil { note += configuration.devices.first?.mapping.sizeMM != nil ? " of the first [[device]]" : "" }
        return note + ")"
    }

    /// Seconds with three decimals.
    static func seconds(_ us: Microseconds) -> String {
        let ms = (us + 500) / 1000
        let frac = String(abs(ms) % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// The fill colour of a view (the root has none).
    func color(ofView index: Int) -> String {
        PictureStyle.viewColors[(index - 1 + PictureStyle.viewColors.count) % PictureStyle.viewColors.count]
    }

    /// What a gesture is in a few words, for its view's label: "double tap", "swipe up",
    /// "edge pan from right", "long press 3 fingers 2s".
    func shortDescription(_ spec: GestureSpec) -> String {
        func fingers(_ n: Int) -> String { n > 1 ? " \(n) fingers" : "" }
        func join(_ names: [(String, Bool)]) -> String { names.filter(\.1).map(\.0).joined(separator: "/") }
        switch spec.parameters {
        case .tap(let p):
            return (p.taps == 1 ? "tap" : p.taps == 2 ? "double tap" : "\(p.taps)\u{00d7} tap") + fingers(p.touches)
        case .longPress(let p):
            let held = spec.parameterValues.first { $0.key == "min_duration" }?.value ?? ""
            return "long press" + fingers(p.touches) + " " + held
        case .swipe(let p):
            let d = p.directions
            return "swipe " + join(Directions.all.map { ($0.name, d.contains($0.direction)) }) + fingers(p.touches)
        case .edgePan(let p):
            return "edge pan from "
                + join([
                    ("left", p.edges.contains(.left)), ("right", p.edges.contains(.right)),
                    ("top", p.edges.contains(.top)), ("bottom", p.edges.contains(.bottom)),
                ])
        case .pan, .pinch, .rotation:
            return spec.type.description
        }
    }

    /// One line naming a gesture's type and key parameters: the ones that differ from
    /// the defaults, and always the swipe's directions and the edge pan's edges.
    func parameterLine(_ spec: GestureSpec) -> String {
        let shown = spec.parameterValues.filter { !$0.isDefault || $0.key == "directions" || $0.key == "edges" }
        let values = shown.map { "\($0.key) \($0.value.replacingQuotes())" }
        return values.isEmpty ? "defaults" : values.joined(separator: ", ")
    }
}

extension String {
    /// `["up", "left"]` as `up, left`: lists read better without TOML's quotes and brackets.
    func replacingQuotes() -> String {
        guard hasPrefix("[") else { return self }
        return String(filter { $0 != "\"" && $0 != "[" && $0 != "]" })
    }
}
