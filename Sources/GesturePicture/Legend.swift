import GestureCore

/// The column right of the screen: every gesture with its type, view, key parameters and
/// relations; with a recording, the key of the marks, the outcomes in order (numbered as
/// on the screen) and the failures per gesture.
struct Legend {
    struct Line {
        var text: String
        var size: Double
        var bold = false
        var color = "#222222"
        var indent = 0.0
        /// A view colour square before the text.
        var swatch: String?
        /// A mark shape before the text.
        var mark: GestureState?
    }

    /// A run of lines, optionally wrapped in a group with attributes (one gesture).
    struct Block {
        var attributes: KeyValuePairs<String, SVGValue>?
        var title: String?
        var lines: [Line]
    }

    let picture: Picture
    let blocks: [Block]

    init(picture: Picture) {
        self.picture = picture
        blocks = Self.blocks(of: picture)
    }

    var height: Double { blocks.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.size * 1.3 } } }

    func draw(into doc: inout SVGDocument) {
        var y = 0.0
        for block in blocks {
            if let attributes = block.attributes {
                doc.group(attributes, title: block.title) { doc in draw(block.lines, y: &y, into: &doc) }
            } else {
                draw(block.lines, y: &y, into: &doc)
            }
        }
    }

    private func draw(_ lines: [Line], y: inout Double, into doc: inout SVGDocument) {
        for line in lines {
            let baseline = y + line.size
            var x = line.indent
            if let swatch = line.swatch {
                doc.element(
                    "rect",
                    [
                        "x": .n(x), "y": .n(baseline - line.size * 0.8), "width": .n(line.size * 0.8),
                        "height": .n(line.size * 0.8), "fill": .s(swatch), "fill-opacity": 0.6, "stroke": .s(swatch),
                    ])
                x += line.size * 1.1
            }
            if let state = line.mark {
                doc.element(
                    "path",
                    [
                        "d": .s(MarkShape.path(state, x: x + line.size * 0.45, y: baseline - line.size * 0.35, size: line.size * 0.45)),
                        "fill": .s(MarkShape.fill(state)), "stroke": .s(MarkShape.stroke(state)), "stroke-width": state == .ended ? 2 : 1,
                    ])
                x += line.size * 1.2
            }
            if !line.text.isEmpty {
                doc.element(
                    "text",
                    [
                        "x": .n(x), "y": .n(baseline), "font-size": .n(line.size),
                        "font-weight": line.bold ? "bold" : "normal", "fill": .s(line.color),
                    ], text: line.text)
            }
            y += line.size * 1.3
        }
    }

    // MARK: content

    private static func blocks(of picture: Picture) -> [Block] {
        let style = picture.style
        let model = picture.model
        let width = picture.legendWidth
        var blocks = [Block(lines: [Line(text: "Gestures", size: style.font * 1.1, bold: true)])]
        for (index, spec) in model.gestures.enumerated() {
            let indent = style.font * 1.1
            var lines = [
                Line(
                    text: spec.name + (spec.enabled ? "" : " (disabled)"), size: style.font, bold: true,
                    swatch: spec.view == 0 ? "#bbbbbb" : picture.color(ofView: spec.view))
            ]
            var details = ["\(spec.type) on \(model.views[spec.view].name)", picture.parameterLine(spec)]
            let waits = model.failureRequirements(of: index)
            if !waits.isEmpty { details.append("waits for \(waits.map { model.gestures[$0].name }.joined(separator: ", ")) to fail") }
            if !spec.simultaneousWith.isEmpty {
                details.append("together with \(spec.simultaneousWith.map { model.gestures[$0].name }.joined(separator: ", "))")
            }
            if let touches = spec.shouldBegin.touches {
                details.append(
                    "should_begin: \(touches.lowerBound)-\(touches.upperBound == Int.max ? "any" : "\(touches.upperBound)") touches")
            }
            if !spec.shouldReceiveTouch.toolTypes.isEmpty {
                let tools = ToolType.allCases.filter(spec.shouldReceiveTouch.toolTypes.contains).map(\.description)
                details.append("should_receive_touch: \(tools.joined(separator: ", "))")
            }
            for detail in details {
                for text in wrap(detail, width: width - indent, size: style.small, style: style) {
                    lines.append(Line(text: text, size: style.small, color: "#444444", indent: indent))
                }
            }
            lines.append(Line(text: "", size: style.small * 0.5))
            blocks.append(
                Block(
                    attributes: [
                        "class": "gesture", "data-gesture": .s(spec.name), "data-type": .s(spec.type.description),
                        "data-view": .s(model.views[spec.view].name),
                    ],
                    title: nil, lines: lines))
        }
        if let recording = picture.recording {
            blocks.append(contentsOf: recordingBlocks(recording, picture: picture))
        }
        return blocks
    }

    private static func recordingBlocks(_ recording: RecordingOverlay, picture: Picture) -> [Block] {
        let style = picture.style
        let model = picture.model
        var lines = [Line(text: "Recording", size: style.font * 1.1, bold: true)]
        let key = "#n: contact n, \u{25cf} touch-down, \u{25cb} lift, \u{00d7} cancelled; a tick every 50 ms"
        for text in wrap(key, width: picture.legendWidth, size: style.small, style: style) {
            lines.append(Line(text: text, size: style.small, color: "#444444"))
        }
        // Only when the health stage filtered something: the key then says what grey means.
        let filtered = recording.contacts.compactMap(\.filtered)
        if !filtered.isEmpty {
            let rules = Set(filtered.map(\.rule.description)).sorted().joined(separator: ", ")
            let text = "grey dashed: \(filtered.count) contact(s) filtered by touch health (\(rules)); hover: why"
            for part in wrap(text, width: picture.legendWidth, size: style.small, style: style) {
                lines.append(Line(text: part, size: style.small, color: PictureStyle.filteredColor))
            }
        }
        for state in MarkShape.states {
            lines.append(
                Line(
                    text: state == .failed ? "failed (hover: why)" : state.description, size: style.small,
                    color: "#444444", mark: state))
        }
        lines.append(Line(text: "", size: style.small * 0.5))
        let listed = picture.listedMarks
        let outcomes = recording.marks.filter { $0.state != .failed }
        lines.append(Line(text: outcomes.isEmpty ? "No gesture began or recognized." : "Outcomes", size: style.font, bold: true))
        for (number, index) in listed.enumerated() {
            let mark = recording.marks[index]
            var text = "\(number + 1). \(Picture.seconds(mark.t)) s \(model.gestures[mark.gesture].name) \(mark.state)"
            if mark.state == .recognized || mark.state == .cancelled, let reason = mark.reason { text += ": \(reason)" }
            for (i, part) in wrap(text, width: picture.legendWidth - style.small * 1.2, size: style.small, style: style).enumerated() {
                lines.append(
                    Line(
                        text: part, size: style.small, color: MarkShape.text(mark.state),
                        indent: i == 0 ? 0 : style.small * 1.2, mark: nil))
            }
        }
        if outcomes.count > listed.count {
            lines.append(Line(text: "... and \(outcomes.count - listed.count) more (hover the marks)", size: style.small, color: "#444444"))
        }
        // Failures: one line per gesture, with how many and the last reason.
        var failures: [(gesture: Int, count: Int, reason: String)] = []
        for mark in recording.marks where mark.state == .failed {
            if let i = failures.firstIndex(where: { $0.gesture == mark.gesture }) {
                failures[i].count += 1
                failures[i].reason = mark.reason ?? ""
            } else {
                failures.append((mark.gesture, 1, mark.reason ?? ""))
            }
        }
        if !failures.isEmpty {
            lines.append(Line(text: "", size: style.small * 0.5))
            lines.append(Line(text: "Failures", size: style.font, bold: true))
            for failure in failures {
                let text = "\(model.gestures[failure.gesture].name) failed \(failure.count)\u{00d7}, last: \(failure.reason)"
                for (i, part) in wrap(text, width: picture.legendWidth - style.small * 1.2, size: style.small, style: style).enumerated() {
                    lines.append(
                        Line(text: part, size: style.small, color: MarkShape.fill(.failed), indent: i == 0 ? 0 : style.small * 1.2))
                }
            }
        }
        return [Block(lines: lines)]
    }

    /// Greedy word wrap to `width` px at `size`.
    static func wrap(_ text: String, width: Double, size: Double, style: PictureStyle) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if style.width(of: candidate, size: size) > width, !current.isEmpty {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

extension Picture {
    /// The outcomes (not failures) numbered on the screen and in the legend, in time order:
    /// as many as fit beside the screen, at least 12.
    var listedMarks: [Int] {
        guard let recording else { return [] }
        let room = Int(model.screen.height / (style.small * 1.3)) - model.gestures.count * 3 - 10
        let limit = max(12, min(room, 60))
        return Array(recording.marks.indices.filter { recording.marks[$0].state != .failed }.prefix(limit))
    }
}
