import ConfigModel
import GestureCore

/// Draws the screen in screen px: views (parents under children), devices' outputs,
/// should-begin / should-receive regions, edge-pan margins, then the recording's traces
/// and marks, and the labels last so that nothing covers them.
struct ScreenPainter {
    let picture: Picture
    var style: PictureStyle { picture.style }
    var model: GestureModel { picture.model }
    /// Labels are placed after everything is drawn.
    private var labels: [Label] = []

    init(picture: Picture) { self.picture = picture }

    struct Label {
        var x: Double, y: Double
        var lines: [(text: String, bold: Bool)]
        var size: Double
        var color: String
    }

    mutating func draw(into doc: inout SVGDocument) {
        drawViews(into: &doc)
        drawDevices(into: &doc)
        drawRegions(into: &doc)
        drawEdgeMargins(into: &doc)
        if let recording = picture.recording {
            TracePainter(picture: picture, recording: recording).draw(into: &doc)
        }
        for label in labels { draw(label, into: &doc) }
    }

    // MARK: views

    private mutating func drawViews(into doc: inout SVGDocument) {
        for (index, view) in model.views.enumerated() {
            let f = view.frame
            let root = view.parent == nil
            let fill: SVGValue = !view.enabled ? "url(#disabled)" : root ? "#fafafa" : .s(picture.color(ofView: index))
            let opacity: SVGValue = !view.enabled ? 0.55 : root ? 1 : 0.22
            var flags: [String] = []
            if view.hidden { flags.append("hidden") }
            if !view.enabled { flags.append("disabled") }
            doc.group(
                [
                    "class": "view", "data-view": .s(view.name), "data-hidden": .s("\(view.hidden)"),
                    "data-enabled": .s("\(view.enabled)"),
                ],
                title: "view \(view.name): \(Self.describe(f))" + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
            ) { doc in
                doc.element(
                    "rect",
                    [
                        "x": .n(f.x), "y": .n(f.y), "width": .n(f.width), "height": .n(f.height),
                        "fill": fill, "fill-opacity": view.hidden ? 0.08 : opacity,
                        "stroke": root ? "#222222" : .s(picture.color(ofView: index)),
                        "stroke-width": .n(style.line * (root ? 2 : 2.5)),
                        "stroke-dasharray": view.hidden
                            ? .s("\(SVGValue.format(style.font * 0.6)) \(SVGValue.format(style.font * 0.4))") : "none",
                    ])
            }
            var lines = [(text: view.name + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))"), bold: true)]
            for spec in model.gestures where spec.view == index {
                lines.append((text: "\(spec.name): \(picture.shortDescription(spec))" + (spec.enabled ? "" : " (disabled)"), bold: false))
            }
            if !root {
                place(lines, in: f, color: Self.darker(picture.color(ofView: index)))
            } else if lines.count > 1 {
                // The root's label goes where no child covers it: top-left, else bottom-left.
                let corner = model.views.dropFirst().contains { $0.frame.contains(x: 1, y: 1) }
                let height = Double(lines.count) * style.font * 1.25 + style.font
                place(
                    lines, in: corner ? Rect(x: f.x, y: f.y + f.height - height, width: f.width, height: height) : f,
                    color: "#222222")
            }
        }
    }

    /// A label inside the top-left corner of `frame` when it fits, else just outside it
    /// (below, or above at the screen's bottom), kept on the screen.
    private mutating func place(_ lines: [(text: String, bold: Bool)], in frame: Rect, color: String) {
        let size = style.font
        let width = lines.map { style.width(of: $0.text, size: size) }.max() ?? 0
        let height = Double(lines.count) * size * 1.25
        let inset = size * 0.35
        var x = frame.x + inset
        var y = frame.y + inset
        if width + 2 * inset > frame.width || height + 2 * inset > frame.height {
            y = frame.y + frame.height + inset
            if y + height > model.screen.height { y = frame.y - height - inset }
            if y < 0 { y = frame.y + inset }
        }
        x = max(inset, min(x, model.screen.width - width - inset))
        // Up past labels already placed (then down, if the top is reached), so none hides another.
        func overlaps(_ y: Double) -> Bool {
            labels.contains { other in
                let otherWidth = other.lines.map { style.width(of: $0.text, size: other.size) }.max() ?? 0
                let otherHeight = Double(other.lines.count) * other.size * 1.25
                return x < other.x + otherWidth + inset && other.x < x + width + inset
                    && y < other.y + otherHeight + inset && other.y < y + height + inset
            }
        }
        let start = y
        while overlaps(y), y - height - inset >= 0 { y -= size * 0.6 }
        if overlaps(y) {
            y = start
            while overlaps(y), y + height < model.screen.height { y += size * 0.6 }
        }
        labels.append(Label(x: x, y: y, lines: lines, size: size, color: color))
    }

    private func draw(_ label: Label, into doc: inout SVGDocument) {
        let width = label.lines.map { style.width(of: $0.text, size: label.size) }.max() ?? 0
        let lineHeight = label.size * 1.25
        doc.group(["class": "label"]) { doc in
            doc.element(
                "rect",
                [
                    "x": .n(label.x - label.size * 0.2), "y": .n(label.y - label.size * 0.1),
                    "width": .n(width + label.size * 0.4), "height": .n(Double(label.lines.count) * lineHeight + label.size * 0.2),
                    "rx": .n(label.size * 0.2), "fill": "#ffffff", "fill-opacity": 0.8,
                ])
            for (i, line) in label.lines.enumerated() {
                doc.element(
                    "text",
                    [
                        "x": .n(label.x), "y": .n(label.y + Double(i) * lineHeight + label.size * 0.95),
                        "font-size": .n(label.size), "font-weight": line.bold ? "bold" : "normal",
                        "fill": .s(label.color),
                    ], text: line.text)
            }
        }
    }

    // MARK: devices, regions, edges

    /// Each `[[device]]` rule that does not simply cover the whole screen unrotated.
    private mutating func drawDevices(into doc: inout SVGDocument) {
        let screen = Rect(x: 0, y: 0, width: model.screen.width, height: model.screen.height)
        for (index, rule) in picture.configuration.devices.enumerated() {
            let m = rule.mapping
            guard (m.output != nil && m.output != screen) || m.rotation != 0 || m.flipX || m.flipY else { continue }
            let output = m.output ?? screen
            var words = ["device \(index + 1)" + (rule.match.name.map { " \"\($0)\"" } ?? "")]
            if m.output != nil { words.append("output \(Self.describe(output))") }
            if m.rotation != 0 { words.append("rotated \(m.rotation)\u{00b0} clockwise") }
            if m.flipX { words.append("flipped x") }
            if m.flipY { words.append("flipped y") }
            doc.group(
                ["class": "device", "data-device": .n(Double(index + 1)), "data-rotation": .n(Double(m.rotation))],
                title: words.joined(separator: ", ")
            ) { doc in
                doc.element(
                    "rect",
                    [
                        "class": "output", "x": .n(output.x), "y": .n(output.y),
                        "width": .n(output.width), "height": .n(output.height),
                        "fill": "none", "stroke": .s(PictureStyle.deviceColor), "stroke-width": .n(style.line * 3),
                        "stroke-dasharray": .s(
                            "\(SVGValue.format(style.font)) \(SVGValue.format(style.font * 0.3)) \(SVGValue.format(style.font * 0.2)) \(SVGValue.format(style.font * 0.3))"
                        ),
                    ])
            }
            // Bottom right of the output (the root's label may take the bottom left): the
            // device's name, then what it does.
            let lines = [(text: words[0], bold: true), (text: words.dropFirst().joined(separator: ", "), bold: false)]
            let width = (lines.map { style.width(of: $0.text) }.max() ?? 0) + style.font
            let height = style.font * 3.4
            let corner = Rect(
                x: max(output.x, output.x + output.width - width), y: output.y + output.height - height,
                width: min(width, output.width), height: height)
            place(lines, in: corner, color: PictureStyle.deviceColor)
        }
    }

    /// `should_begin` and `should_receive_touch` regions as dashed outlines.
    private mutating func drawRegions(into doc: inout SVGDocument) {
        for spec in model.gestures {
            let regions: [(String, Rect?)] = [
                ("should_begin", spec.shouldBegin.region),
                ("should_receive_touch", spec.shouldReceiveTouch.region),
            ]
            for case (let kind, let region?) in regions {
                doc.element(
                    "rect",
                    [
                        "class": "region", "data-gesture": .s(spec.name), "data-kind": .s(kind),
                        "x": .n(region.x), "y": .n(region.y), "width": .n(region.width), "height": .n(region.height),
                        "fill": .s(PictureStyle.regionColor), "fill-opacity": 0.06,
                        "stroke": .s(PictureStyle.regionColor), "stroke-width": .n(style.line * 2.5),
                        "stroke-dasharray": .s("\(SVGValue.format(style.font * 0.5)) \(SVGValue.format(style.font * 0.3))"),
                    ],
                    title: "\(spec.name): \(kind) region \(Self.describe(region))")
                place([(text: "\(spec.name): \(kind) region", bold: false)], in: region, color: PictureStyle.regionColor)
            }
        }
    }

    /// Each edge pan's margin along each of its edges, within its view.
    private mutating func drawEdgeMargins(into doc: inout SVGDocument) {
        let screen = model.screen
        for spec in model.gestures {
            guard case .edgePan(let parameters) = spec.parameters else { continue }
            let mm = picture.geometry.millimeters(parameters.edgeMargin)
            let bandX = mm / picture.geometry.mmPerPixelX
            let bandY = mm / picture.geometry.mmPerPixelY
            let view = model.views[spec.view].frame
            let edges: [(String, Edges, Rect)] = [
                ("left", .left, Rect(x: 0, y: 0, width: bandX, height: screen.height)),
                ("right", .right, Rect(x: screen.width - bandX, y: 0, width: bandX, height: screen.height)),
                ("top", .top, Rect(x: 0, y: 0, width: screen.width, height: bandY)),
                ("bottom", .bottom, Rect(x: 0, y: screen.height - bandY, width: screen.width, height: bandY)),
            ]
            for (name, edge, band) in edges where parameters.edges.contains(edge) {
                guard let r = Self.intersection(band, view) else { continue }
                let text = "\(spec.name): \(name) edge, \(SVGValue.format(mm)) mm"
                doc.element(
                    "rect",
                    [
                        "class": "edge-margin", "data-gesture": .s(spec.name), "data-edge": .s(name),
                        "x": .n(r.x), "y": .n(r.y), "width": .n(r.width), "height": .n(r.height),
                        "fill": "url(#edge)", "stroke": .s(PictureStyle.edgeColor), "stroke-width": .n(style.line),
                    ],
                    title: text)
                // Along the band, turned for vertical edges, on the screen side of it.
                let size = style.font
                let vertical = edge == .left || edge == .right
                let (x, y, angle): (Double, Double, Double) =
                    switch edge {
                    case .left: (r.x + r.width + size * 0.2, r.y + r.height / 2, 90)
                    case .right: (r.x - size * 0.3, r.y + r.height / 2, -90)
                    case .top: (r.x + r.width / 2, r.y + r.height + size * 1.0, 0)
                    default: (r.x + r.width / 2, r.y - size * 0.3, 0)
                    }
                doc.element(
                    "text",
                    [
                        "x": .n(x), "y": .n(y), "font-size": .n(size), "text-anchor": "middle",
                        "fill": .s(Self.darker(PictureStyle.edgeColor)), "font-weight": "bold",
                        "transform": vertical
                            ? .s("rotate(\(SVGValue.format(angle)) \(SVGValue.format(x)) \(SVGValue.format(y)))") : "none",
                    ],
                    text: text)
            }
        }
    }

    // MARK: helpers

    static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let x0 = max(a.x, b.x)
        let y0 = max(a.y, b.y)
        let x1 = min(a.x + a.width, b.x + b.width)
        let y1 = min(a.y + a.height, b.y + b.height)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    static func describe(_ r: Rect) -> String {
        "\(SVGValue.format(r.x)),\(SVGValue.format(r.y)) \(SVGValue.format(r.width))\u{00d7}\(SVGValue.format(r.height)) px"
    }

    /// A `#rrggbb` colour at 60 % brightness, for text on its own tint.
    static func darker(_ hex: String) -> String {
        guard hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return hex }
        let channels = [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff].map { $0 * 6 / 10 }
        return "#" + channels.map { c in (c < 16 ? "0" : "") + String(c, radix: 16) }.joined()
    }
}
