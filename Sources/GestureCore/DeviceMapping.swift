/// How one touchscreen maps onto the screen: applied in normalized space in the order
/// calibration matrix, rotation, flips (as libinput's `LIBINPUT_CALIBRATION_MATRIX` and
/// udev's rotation rules do), then scaled into `output` (screen px).
public struct DeviceMapping: Equatable, Sendable {
    /// Clockwise rotation of the panel relative to the screen: 0, 90, 180 or 270 degrees.
    public var rotation: Int
    public var flipX: Bool
    public var flipY: Bool
    /// Row-major 2x3 matrix `[a, b, c, d, e, f]`: x' = a x + b y + c, y' = d x + e y + f.
    public var calibration: [Double]
    /// The part of the screen the panel covers, px; nil for the whole screen.
    public var output: Rect?
    /// Physical size in mm, for panels whose resolution is missing or wrong.
    public var sizeMM: (width: Double, height: Double)?

    public static let identity = DeviceMapping()

    public init(
        rotation: Int = 0, flipX: Bool = false, flipY: Bool = false,
        calibration: [Double] = [1, 0, 0, 0, 1, 0], output: Rect? = nil,
        sizeMM: (width: Double, height: Double)? = nil
    ) {
        self.rotation = rotation
        self.flipX = flipX
        self.flipY = flipY
        self.calibration = calibration
        self.output = output
        self.sizeMM = sizeMM
    }

    public static func == (a: DeviceMapping, b: DeviceMapping) -> Bool {
        a.rotation == b.rotation && a.flipX == b.flipX && a.flipY == b.flipY
            && a.calibration == b.calibration && a.output == b.output
            && a.sizeMM?.width == b.sizeMM?.width && a.sizeMM?.height == b.sizeMM?.height
    }
}

extension DeviceMapping {
    /// udev's `LIBINPUT_CALIBRATION_MATRIX` property: six numbers separated by spaces, the
    /// first two rows of a matrix in normalized device space. nil when it is not exactly six
    /// finite numbers (libinput then ignores it too).
    public static func calibration(udevProperty text: String) -> [Double]? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 6 else { return nil }
        var matrix: [Double] = []
        for part in parts {
            guard let value = Double(part), value.isFinite else { return nil }
            matrix.append(value)
        }
        return matrix
    }
}
