import GestureCore

/// Draws a recording on the screen: each contact's path in its own colour with a tick
/// every 50 ms across the motion (close ticks: slow, far apart: fast), a dot at touch-down
/// and a ring (lifted) or a cross (cancelled) at the end; then each gesture outcome as a
/// mark whose hover text holds the time and the reason from the trace.
struct TracePainter {
    let picture: Picture
    let recording: RecordingOverlay
    var style: PictureStyle { picture.style }

    static let tickInterval: Microseconds = 50_000

    func draw(into doc: inout SVGDocument) {
        // Thinner lines when there are many, so hundreds of traces stay apart.
        let crowded = recording.contacts.count > 30
        let width = style.line * (crowded ? 1.5 : 2.5)
        let numbered = recording.contacts.count <= 20
        for (index, contact) in recording.contacts.enumerated() {
            // A filtered contact is grey and dashed: noise the panel made, kept from everyone.
            let color =
                contact.filtered == nil ? PictureStyle.contactColors[index % PictureStyle.contactColors.count] : PictureStyle.filteredColor
            guard let first = contact.points.first, let last = contact.points.last else { continue }
            var title =
                "contact \(index + 1) (tracking id \(contact.trackingID)): down at \(Picture.seconds(first.t)) s "
                + "(\(SVGValue.format(first.x)), \(SVGValue.format(first.y))), \(contact.end == .ended ? "lifted" : "cancelled") at "
                + "\(Picture.seconds(last.t)) s (\(SVGValue.format(last.x)), \(SVGValue.format(last.y)))"
            if let filtered = contact.filtered {
                title +=
                    "; filtered by touch health (\(filtered.rule)): "
                    + (filtered.wasShown ? "shown, then cancelled" : "never shown to gestures or the application")
            }
            let body = { (doc: inout SVGDocument) in
                let points = contact.points.map { "\(SVGValue.format($0.x)),\(SVGValue.format($0.y))" }.joined(separator: " ")
                if contact.filtered == nil {
                    doc.element(
                        "polyline",
                        [
                            "class": "trace", "points": .s(points), "fill": "none", "stroke": .s(color),
                            "stroke-width": .n(width), "stroke-linejoin": "round", "stroke-linecap": "round",
                            "stroke-opacity": 0.85,
                        ])
                } else {
                    doc.element(
                        "polyline",
                        [
                            "class": "trace", "points": .s(points), "fill": "none", "stroke": .s(color),
                            "stroke-width": .n(width), "stroke-linejoin": "round", "stroke-linecap": "round",
                            "stroke-opacity": 0.85, "stroke-dasharray": .s("\(SVGValue.format(width * 2)) \(SVGValue.format(width * 1.5))"),
                        ])
                }
                let ticks = tickPath(contact, length: style.font * 0.3)
                if !ticks.isEmpty {
                    doc.element("path", ["class": "ticks", "d": .s(ticks), "stroke": .s(color), "stroke-width": .n(width * 0.8)])
                }
                let r = style.font * (crowded ? 0.2 : 0.3)
                doc.element(
                    "circle",
                    [
                        "class": "down", "cx": .n(first.x), "cy": .n(first.y), "r": .n(r),
                        "fill": .s(color), "stroke": "#ffffff", "stroke-width": .n(style.line),
                    ])
                if contact.end == .ended {
                    doc.element(
                        "circle",
                        [
                            "class": "lift", "cx": .n(last.x), "cy": .n(last.y), "r": .n(r * 1.4),
                            "fill": "none", "stroke": .s(color), "stroke-width": .n(width),
                        ])
                } else {
                    doc.element(
                        "path",
                        [
                            "class": "lift", "d": .s(cross(last.x, last.y, r * 1.2)), "stroke": .s(color),
                            "stroke-width": .n(width),
                        ])
                }
                if numbered {
                    doc.element(
                        "text",
                        [
                            "x": .n(first.x - r * 1.5), "y": .n(first.y - r * 1.5), "font-size": .n(style.small),
                            "text-anchor": "end", "fill": .s(color), "font-style": "italic",
                        ], text: "#\(index + 1)")
                }
            }
            if let filtered = contact.filtered {
                doc.group(
                    [
                        "class": "contact filtered", "data-index": .n(Double(index + 1)), "data-id": .n(Double(contact.trackingID)),
                        "data-end": .s(contact.end.description), "data-filtered": .s(filtered.rule.description),
                    ], title: title, body)
            } else {
                doc.group(
                    [
                        "class": "contact", "data-index": .n(Double(index + 1)), "data-id": .n(Double(contact.trackingID)),
                        "data-end": .s(contact.end.description),
                    ], title: title, body)
            }
        }
        let listed = picture.listedMarks
        for (index, mark) in recording.marks.enumerated() where mark.state != .failed {
            drawMark(mark, number: listed.firstIndex(of: index).map { $0 + 1 }, into: &doc)
        }
        drawFailures(into: &doc)
    }

    /// Failures at one moment and place (every gesture a contact reached fails together
    /// when it lifts) as one small cross whose hover text lists each gesture and why.
    private func drawFailures(into doc: inout SVGDocument) {
        var groups: [[RecordingOverlay.Mark]] = []
        for mark in recording.marks where mark.state == .failed {
            if let last = groups.last?.first, last.t == mark.t, abs(last.x - mark.x) < 1, abs(last.y - mark.y) < 1 {
                groups[groups.count - 1].append(mark)
            } else {
                groups.append([mark])
            }
        }
        for group in groups {
            let first = group[0]
            let names = group.map { picture.model.gestures[$0.gesture].name }
            let title =
                "\(Picture.seconds(first.t)) s: failed\n"
                + group.map { mark in
                    "\(picture.model.gestures[mark.gesture].name) (\(picture.model.gestures[mark.gesture].type)): \(mark.reason ?? "?")"
                }.joined(separator: "\n")
            doc.group(
                [
                    "class": "mark", "data-gesture": .s(names.joined(separator: " ")), "data-state": "failed",
                    "data-ms": .n(Double(first.t) / 1000), "data-x": .n(first.x), "data-y": .n(first.y),
                ], title: title
            ) { doc in
                doc.element(
                    "path",
                    [
                        "d": .s(MarkShape.path(.failed, x: first.x, y: first.y, size: style.font * 0.35)),
                        "fill": .s(MarkShape.fill(.failed)), "fill-opacity": 0.8, "stroke": "none",
                    ])
            }
        }
    }

    /// Short strokes across the path every 50 ms of the contact's life, interpolated
    /// between frames.
    private func tickPath(_ contact: RecordingOverlay.ContactTrace, length: Double) -> String {
        let points = contact.points
        guard points.count > 1, let start = points.first?.t else { return "" }
        var d = ""
        var t = start + Self.tickInterval
        var i = 1
        while i < points.count {
            let a = points[i - 1]
            let b = points[i]
            while t <= b.t {
                let f = b.t > a.t ? Double(t - a.t) / Double(b.t - a.t) : 1
                let x = a.x + (b.x - a.x) * f
                let y = a.y + (b.y - a.y) * f
                let dx = b.x - a.x
                let dy = b.y - a.y
                let n = (dx * dx + dy * dy).squareRoot()
                if n > 0 {  // across the motion; a contact at rest gets no tick
                    let nx = -dy / n * length
                    let ny = dx / n * length
                    d += "M\(SVGValue.format(x - nx)) \(SVGValue.format(y - ny))L\(SVGValue.format(x + nx)) \(SVGValue.format(y + ny))"
                }
                t += Self.tickInterval
            }
            i += 1
        }
        return d
    }

    private func cross(_ x: Double, _ y: Double, _ r: Double) -> String {
        "M\(SVGValue.format(x - r)) \(SVGValue.format(y - r))L\(SVGValue.format(x + r)) \(SVGValue.format(y + r))"
            + "M\(SVGValue.format(x - r)) \(SVGValue.format(y + r))L\(SVGValue.format(x + r)) \(SVGValue.format(y - r))"
    }

    private func drawMark(_ mark: RecordingOverlay.Mark, number: Int?, into doc: inout SVGDocument) {
        let spec = picture.model.gestures[mark.gesture]
        let title =
            "\(Picture.seconds(mark.t)) s: \(spec.name) (\(spec.type)) \(mark.state)"
            + (mark.reason.map { ": \($0)" } ?? "")
        doc.group(
            [
                "class": "mark", "data-gesture": .s(spec.name), "data-state": .s(mark.state.description),
                "data-ms": .n(Double(mark.t) / 1000), "data-x": .n(mark.x), "data-y": .n(mark.y),
            ], title: title
        ) { doc in
            doc.element(
                "path",
                [
                    "d": .s(MarkShape.path(mark.state, x: mark.x, y: mark.y, size: style.font * 0.55)),
                    "fill": .s(MarkShape.fill(mark.state)), "stroke": .s(MarkShape.stroke(mark.state)),
                    "stroke-width": .n(style.line * (mark.state == .ended ? 2.5 : 1.2)),
                ])
            if let number {
                doc.element(
                    "text",
                    [
                        "x": .n(mark.x + style.font * 0.7), "y": .n(mark.y + style.font * 0.35),
                        "font-size": .n(style.small), "font-weight": "bold", "fill": .s(MarkShape.text(mark.state)),
                        "stroke": "#ffffff", "stroke-width": .n(style.line * 3), "paint-order": "stroke",
                    ],
                    text: "\(number)")
            }
        }
    }
}

/// One shape per outcome, shared by the screen and the legend's key: began a green
/// triangle, recognized a blue diamond, ended a dark square, cancelled an orange cross,
/// failed a red cross.
enum MarkShape {
    static let states: [GestureState] = [.began, .recognized, .ended, .cancelled, .failed]

    static func path(_ state: GestureState, x: Double, y: Double, size s: Double) -> String {
        func p(_ dx: Double, _ dy: Double) -> String { "\(SVGValue.format(x + dx * s)) \(SVGValue.format(y + dy * s))" }
        switch state {
        case .began: return "M\(p(-0.8, -0.9))L\(p(1, 0))L\(p(-0.8, 0.9))Z"
        case .recognized: return "M\(p(0, -1.1))L\(p(1.1, 0))L\(p(0, 1.1))L\(p(-1.1, 0))Z"
        case .ended: return "M\(p(-0.75, -0.75))L\(p(0.75, -0.75))L\(p(0.75, 0.75))L\(p(-0.75, 0.75))Z"
        default:
            // A thick cross as one outline, so it fills like the others.
            let a = 0.3
            let b = 1.0
            return "M\(p(-b, -b + a))L\(p(-a, 0))L\(p(-b, b - a))L\(p(-b + a, b))L\(p(0, a))L\(p(b - a, b))L\(p(b, b - a))"
                + "L\(p(a, 0))L\(p(b, -b + a))L\(p(b - a, -b))L\(p(0, -a))L\(p(-b + a, -b))Z"
        }
    }

    static func fill(_ state: GestureState) -> String {
        switch state {
        case .began: "#2e7d32"
        case .recognized: "#1565c0"
        case .ended: "none"  // hollow: a began at the same place stays visible inside
        case .cancelled: "#ef6c00"
        default: "#d32f2f"
        }
    }

    static func stroke(_ state: GestureState) -> String {
        switch state {
        case .failed: "#7f0000"
        case .ended: "#333333"
        default: "#ffffff"
        }
    }

    /// The colour a state's text and number take.
    static func text(_ state: GestureState) -> String {
        state == .ended ? "#333333" : fill(state)
    }
}
