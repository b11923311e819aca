/// Sizes and colours of a picture, scaled to the screen so that text stays legible from
/// an 800x480 panel to a 4K one: the font is about a fiftieth of the screen's short side,
/// never under 13 px (the legend's small text 11 px).
struct PictureStyle {
    /// The base font size, px.
    let font: Double
    /// Space around and between the blocks.
    let pad: Double
    /// The thinnest line.
    let line: Double

    init(screen width: Double, _ height: Double) {
        font = min(max(min(width, height) / 50, 13), 28)
        pad = font
        line = max(1, font / 10)
    }

    var lineHeight: Double { font * 1.3 }
    var small: Double { max(11, (font * 0.82).rounded()) }

    /// The width of `text` at `size`: DejaVu Sans averages a little over half an em per
    /// character; an estimate, so boxes err on the wide side.
    func width(of text: String, size: Double? = nil) -> Double {
        Double(text.count) * (size ?? font) * 0.6
    }

    static let fontFamily = "DejaVu Sans, Verdana, sans-serif"

    /// Fill hues per view, in declaration order (the root is drawn plain).
    static let viewColors = ["#4e79a7", "#59a14f", "#b07aa1", "#edc948", "#76b7b2", "#ff9da7", "#9c755f", "#bab0ac"]
    /// One colour per contact, in order of touch-down (Tableau 10 without grey).
    static let contactColors = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
        "#17becf", "#e377c2", "#8c564b", "#bcbd22", "#393b79",
    ]
    /// A contact the touch-health stage filtered (drawn dashed).
    static let filteredColor = "#9e9e9e"
    static let edgeColor = "#f28e2b"
    static let regionColor = "#7b3294"
    static let deviceColor = "#0571b0"
}
