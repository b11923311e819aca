/// One device's geometry as the engine uses it: normalized position -> screen px through the
/// device's `DeviceMapping`, and screen px -> millimetres per axis for thresholds.
///
/// Unit rules (docs/SEMANTICS.md, "Units"): the axis resolution counts only when it implies a
/// plausible panel (30 to 2000 mm per axis); otherwise the mapping's `sizeMM`; otherwise
/// 1 pt = 1 screen px, and attaching the device gives one `DeviceUnitsWarning` naming it.
public struct DeviceGeometry: Sendable {
    /// Where the physical size came from.
    public enum UnitSource: Sendable, Equatable, CustomStringConvertible {
        case resolution, configuredSize, pointPerPixel
        public var description: String {
            switch self {
            case .resolution: "axis resolution"
            case .configuredSize: "configured size_mm"
            case .pointPerPixel: "1 pt = 1 px"
            }
        }
    }

    /// The part of the screen the device covers, px.
    public let output: Rect
    /// Millimetres per screen px along the screen's x and y axes.
    public let mmPerPixelX: Double
    public let mmPerPixelY: Double
    public let unitSource: UnitSource
    /// The mapping's calibration (nil: none), rotation and flips, resolved once so that
    /// `screenPoint`, run for every contact of every frame, reads no array and divides
    /// nothing, and so that the geometry holds no reference: the engine hands it to every
    /// recognizer it asks, and a copy is then a plain copy, without retain and release.
    @usableFromInline let calibration: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)?
    @usableFromInline let quarterTurns: Int
    @usableFromInline let flipX: Bool, flipY: Bool
    /// Where the last value's cell begins, normalized, along the panel's x and y axes
    /// (`1 - 1/valueCount`): a mirror maps each cell onto the mirrored one, so the minimum
    /// mirrored lands where the maximum does unmirrored; and along the screen's axes (after
    /// rotation): nothing is placed beyond it.
    @usableFromInline let lastX: Double, lastY: Double
    @usableFromInline let lastAlongX: Double, lastAlongY: Double

    /// The plausible physical extent of one axis, mm.
    public static let plausibleMillimeters: ClosedRange<Double> = 30...2000

    public init(screen: ScreenSize, x: AxisRange, y: AxisRange, mapping: DeviceMapping) {
        let m = mapping.calibration
        calibration = m.count == 6 ? (m[0], m[1], m[2], m[3], m[4], m[5]) : nil
        quarterTurns = mapping.quarterTurns
        flipX = mapping.flipX
        flipY = mapping.flipY
        lastX = Self.lastCell(x)
        lastY = Self.lastCell(y)
        (lastAlongX, lastAlongY) = mapping.quarterTurns % 2 == 1 ? (lastY, lastX) : (lastX, lastY)
        output = mapping.output ?? Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        // Physical width and height of the panel along its own (device) axes.
        let panel: (width: Double, height: Double)?
        let source: UnitSource
        if let w = Self.millimeters(x), let h = Self.millimeters(y) {
            panel = (w, h)
            source = .resolution
        } else if let size = mapping.sizeMM, size.width > 0, size.height > 0 {
            panel = size
            source = .configuredSize
        } else {
            panel = nil
            source = .pointPerPixel
        }
        unitSource = source
        if let panel {
            // A quarter turn swaps which panel axis runs along the screen's x.
            let quarter = mapping.quarterTurns % 2 == 1
            let alongX = quarter ? panel.height : panel.width
            let alongY = quarter ? panel.width : panel.height
            mmPerPixelX = output.width > 0 ? alongX / output.width : GestureDefaults.pointInMillimeters
            mmPerPixelY = output.height > 0 ? alongY / output.height : GestureDefaults.pointInMillimeters
        } else {
            mmPerPixelX = GestureDefaults.pointInMillimeters
            mmPerPixelY = GestureDefaults.pointInMillimeters
        }
    }

    /// Where the last value's cell of `axis` begins, normalized; for an axis that says
    /// nothing of its values (a device never attached: 0...0), just short of the far edge.
    static func lastCell(_ axis: AxisRange) -> Double {
        axis.valueCount > 1 ? 1 - 1 / axis.valueCount : (1.0).nextDown
    }

    /// The extent of an axis in mm when its resolution is plausible, else nil: each value
    /// owns a cell of 1/resolution mm, as it owns a cell of the screen (`AxisRange.normalize`).
    static func millimeters(_ axis: AxisRange) -> Double? {
        guard axis.resolution > 0, axis.maximum > axis.minimum else { return nil }
        let mm = axis.valueCount / Double(axis.resolution)
        return plausibleMillimeters.contains(mm) ? mm : nil
    }

    /// Normalized device position (`AxisRange.normalize`) to screen px: calibration,
    /// rotation, flips, then scaling into `output` (libinput's order). Every point lands in
    /// `output`, its far edges excluded (`Rect.contains` is half-open): a calibration that
    /// reaches beyond the panel places the touch on the nearest edge's last cell, as the
    /// normalizer does with a value beyond the axis' range.
    @inlinable public func screenPoint(normalizedX nx: Double, normalizedY ny: Double) -> (x: Double, y: Double) {
        var x = nx
        var y = ny
        if let m = calibration {
            x = m.a * nx + m.b * ny + m.c
            y = m.d * nx + m.e * ny + m.f
        }
        switch quarterTurns {
        case 1: (x, y) = (lastY - y, x)
        case 2: (x, y) = (lastX - x, lastY - y)
        case 3: (x, y) = (y, lastX - x)
        default: break
        }
        if flipX { x = lastAlongX - x }
        if flipY { y = lastAlongY - y }
        x = min(max(x, 0), lastAlongX)
        y = min(max(y, 0), lastAlongY)
        return (output.x + x * output.width, output.y + y * output.height)
    }

    /// A configured length in millimetres on this device (points are 1/163 inch; pixels use
    /// the mean of the two axes' scale).
    @inlinable public func millimeters(_ length: Length) -> Double {
        switch length {
        case .millimeters(let v): v
        case .points(let v): v * GestureDefaults.pointInMillimeters
        case .pixels(let v): v * (mmPerPixelX + mmPerPixelY) / 2
        }
    }
}

extension DeviceGeometry {
    /// 1 pt = 1 px over a unit screen, for a gesture that has no device yet.
    static let fallback = DeviceGeometry(
        screen: ScreenSize(width: 1, height: 1),
        x: AxisRange(minimum: 0, maximum: 0), y: AxisRange(minimum: 0, maximum: 0),
        mapping: .identity)
}

extension DeviceMapping {
    /// `rotation` as clockwise quarter turns, 0...3 (other angles count as 0; the config
    /// accepts only multiples of 90).
    @inlinable var quarterTurns: Int {
        let degrees = ((rotation % 360) + 360) % 360
        return degrees % 90 == 0 ? degrees / 90 : 0
    }
}

/// A device whose distances fall back to 1 pt = 1 px: its axes imply no plausible panel and
/// its mapping has no size. Typed here; the config layer words it (it names the keys that
/// fix it).
public struct DeviceUnitsWarning: Equatable, Sendable {
    public var device: DeviceID
    public var name: String
    public var x: AxisRange
    public var y: AxisRange

    /// The warning for a device with `geometry`, when its units fell back.
    public init?(device: DeviceID, name: String, x: AxisRange, y: AxisRange, geometry: DeviceGeometry) {
        guard geometry.unitSource == .pointPerPixel else { return nil }
        self.device = device
        self.name = name
        self.x = x
        self.y = y
    }
}
