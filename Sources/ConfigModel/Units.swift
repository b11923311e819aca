import GestureCore

/// The unit rules of the config: lengths `"12mm"`, `"10pt"`, `"40px"` (and `"25%"` where a
/// parent gives it meaning), durations `"300ms"`, `"0.5s"`, angles `"30deg"`, `"0.5rad"`,
/// speeds `"50mm/s"`. Bare numbers only where the unit is unambiguous (see each reader).
package enum Units {
    package static let durationExpected = "a duration such as \"300ms\" or \"0.5s\""
    package static let lengthExpected = "a length such as \"12mm\", \"10pt\" or \"40px\""
    package static let angleExpected = "an angle such as \"30deg\" or \"0.5rad\""
    package static let speedExpected = "a speed such as \"50mm/s\" (or a bare number of mm/s)"
    package static let frameExpected = "px (a number or \"40px\") or a percentage of the parent (\"25%\")"

    /// The longest duration accepted: a day, far beyond any gesture, well inside Int64 µs.
    package static let maximumDuration: Double = 86_400_000_000

    package typealias FrameLength = ConfigModel.FrameLength

    /// `"-12.5mm"` -> (-12.5, "mm"): a decimal number then a unit suffix. Exponents and TOML's
    /// `inf`/`nan` are refused: nobody writes a gesture threshold that way.
    package static func split(_ text: String) -> (value: Double, unit: Substring)? {
        let trimmed = text.drop { $0 == " " }
        var end = trimmed.startIndex
        var sawDigit = false
        for (offset, c) in zip(trimmed.indices, trimmed) {
            let isSign = offset == trimmed.startIndex && (c == "-" || c == "+")
            guard isSign || c == "." || c.isASCII && c.isNumber else { break }
            sawDigit = sawDigit || c.isNumber
            end = trimmed.index(after: offset)
        }
        guard sawDigit, let value = Double(trimmed[..<end]), value.isFinite else { return nil }
        let unit = trimmed[end...].drop { $0 == " " }
        return (value, unit)
    }

    package static func duration(_ text: String) -> Microseconds? {
        guard let (value, unit) = split(text) else { return nil }
        let micros: Double
        switch unit {
        case "us", "µs": micros = value
        case "ms": micros = value * 1_000
        case "s": micros = value * 1_000_000
        case "min": micros = value * 60_000_000
        default: return nil
        }
        guard abs(micros) <= maximumDuration else { return nil }
        return Microseconds(micros.rounded())
    }

    package static func length(_ text: String) -> Length? {
        guard let (value, unit) = split(text) else { return nil }
        switch unit {
        case "mm": return .millimeters(value)
        case "cm": return .millimeters(value * 10)
        case "pt": return .points(value)
        case "px": return .pixels(value)
        default: return nil
        }
    }

    /// Radians.
    package static func angle(_ text: String) -> Double? {
        guard let (value, unit) = split(text) else { return nil }
        switch unit {
        case "deg", "°": return value * .pi / 180
        case "rad": return value
        default: return nil
        }
    }

    /// mm/s.
    package static func speed(_ text: String) -> Double? {
        guard let (value, unit) = split(text) else { return nil }
        switch unit {
        case "mm/s": return value
        case "cm/s": return value * 10
        default: return nil
        }
    }

    package static func frameLength(_ text: String) -> FrameLength? {
        guard let (value, unit) = split(text) else { return nil }
        switch unit {
        case "px": return .pixels(value)
        case "%": return .percent(value)
        default: return nil
        }
    }

    /// The shortest exact-enough text for a number: `10`, `0.5`, `12.25`.
    package static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000  // hides float noise: 30deg, not 30.000000000000004
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    package static func format(duration: Microseconds) -> String {
        if duration != 0, duration % 1_000_000 == 0 { return "\(duration / 1_000_000)s" }
        if duration % 1_000 == 0 { return "\(duration / 1_000)ms" }
        return "\(duration)us"
    }

    package static func format(length: Length) -> String {
        switch length {
        case .millimeters(let v): "\(format(v))mm"
        case .points(let v): "\(format(v))pt"
        case .pixels(let v): "\(format(v))px"
        }
    }

    package static func format(angle: Double) -> String { "\(format(angle * 180 / .pi))deg" }

    /// `200x600 at (100, 0)`, px.
    package static func format(rect: Rect) -> String {
        "\(format(rect.width))x\(format(rect.height)) at (\(format(rect.x)), \(format(rect.y)))"
    }
}
