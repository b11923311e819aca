import GestureCore
import JSONOutput

/// Descriptions of touch devices for `gesturectl devices`: text blocks and JSON objects.
public enum DeviceFormatter {
    /// The kernel's `BUS_*` names for the buses touchscreens sit on.
    public static func busName(_ bus: UInt16) -> String {
        switch bus {
        case 0x03: "usb"
        case 0x05: "bluetooth"
        case 0x06: "virtual"
        case 0x11: "i8042"
        case 0x18: "i2c"
        case 0x19: "host"
        case 0x1c: "spi"
        case 0x1d: "rmi"
        default: "bus 0x" + InputCodes.hex(bus)
        }
    }

    /// Several lines: node and name, ids, protocol and slots, axes, optional axes, udev.
    public static func text(_ info: TouchDeviceInfo, udev: [String: String] = [:]) -> String {
        var lines = ["\(info.devnode ?? "(recording)")  \"\(info.name)\""]
        lines.append(
            "  ids: \(busName(info.bus)) \(InputCodes.hex4(info.vendor)):\(InputCodes.hex4(info.product)) version \(InputCodes.hex4(info.version))"
        )
        var kind = "protocol \(info.multitouchProtocol.rawValue)"
        if info.multitouchProtocol == .b { kind += ", \(info.slotCount) slots" }
        if info.multitouchProtocol == .a { kind += " (converted by libmtdev)" }
        kind += info.isDirect ? ", direct" : ", not direct"
        lines.append("  " + kind)
        lines.append("  x: \(axis(info.x))  y: \(axis(info.y))")
        var extras: [String] = []
        if info.hasPressure { extras.append("pressure") }
        if info.hasTouchMajor { extras.append("touch major") }
        if info.hasToolType { extras.append("tool type") }
        if !extras.isEmpty { lines.append("  reports: " + extras.joined(separator: ", ")) }
        let keys = ["ID_PATH", "ID_INPUT_TOUCHSCREEN", "ID_VENDOR_ID", "ID_MODEL_ID", "LIBINPUT_CALIBRATION_MATRIX"]
        let shown = keys.compactMap { key in udev[key].map { "\(key)=\($0)" } }
        if !shown.isEmpty { lines.append("  udev: " + shown.joined(separator: " ")) }
        lines.append("  calibration: " + UdevCalibration(udev).text)
        return lines.joined(separator: "\n")
    }

    /// One JSON object.
    public static func json(_ info: TouchDeviceInfo, udev: [String: String] = [:], error: String? = nil) -> String {
        var fields = [
            "\"devnode\":" + (info.devnode.map(JSONText.string) ?? "null"),
            "\"name\":" + JSONText.string(info.name),
            "\"bus\":" + JSONText.string(busName(info.bus)),
            "\"vendor\":" + JSONText.string(InputCodes.hex4(info.vendor)),
            "\"product\":" + JSONText.string(InputCodes.hex4(info.product)),
            "\"version\":" + JSONText.string(InputCodes.hex4(info.version)),
            "\"protocol\":" + JSONText.string(info.multitouchProtocol.rawValue),
            "\"slots\":\(info.slotCount)",
            "\"direct\":\(info.isDirect)",
            "\"x\":" + axisJSON(info.x),
            "\"y\":" + axisJSON(info.y),
            "\"pressure\":\(info.hasPressure)",
            "\"touchMajor\":\(info.hasTouchMajor)",
            "\"toolType\":\(info.hasToolType)",
        ]
        let udevFields = udev.sorted { $0.key < $1.key }.map { JSONText.string($0.key) + ":" + JSONText.string($0.value) }
        fields.append("\"udev\":{" + udevFields.joined(separator: ",") + "}")
        fields.append("\"calibration\":" + UdevCalibration(udev).json)
        if let error { fields.append("\"error\":" + JSONText.string(error)) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The matrix libinput (and gestured, unless a `[[device]]` rule sets `calibration`)
    /// applies to the device: udev's `LIBINPUT_CALIBRATION_MATRIX` when it is 6 numbers.
    private enum UdevCalibration {
        case none
        case matrix([Double])
        case invalid(String)

        init(_ udev: [String: String]) {
            guard let text = udev["LIBINPUT_CALIBRATION_MATRIX"] else {
                self = .none
                return
            }
            self = DeviceMapping.calibration(udevProperty: text).map(UdevCalibration.matrix) ?? .invalid(text)
        }

        var json: String {
            let (matrix, source) =
                switch self {
                case .none: (DeviceMapping.identity.calibration, "none")
                case .matrix(let m): (m, "udev")
                case .invalid: (DeviceMapping.identity.calibration, "invalid")
                }
            return "{\"matrix\":[" + matrix.map { JSONText.fixed($0, decimals: 6) }.joined(separator: ",")
                + "],\"source\":" + JSONText.string(source) + "}"
        }

        var text: String {
            switch self {
            case .none:
                "none"
            case .matrix(let m):
                m.map { JSONText.fixed($0, decimals: 6) }.joined(separator: " ")
                    + " from udev LIBINPUT_CALIBRATION_MATRIX (applied unless a [[device]] rule sets calibration)"
            case .invalid(let text):
                "none: udev LIBINPUT_CALIBRATION_MATRIX \"\(text)\" is not 6 numbers (ignored, as libinput does)"
            }
        }
    }

    private static func axis(_ range: AxisRange) -> String {
        let resolution = range.resolution > 0 ? "\(range.resolution) units/mm" : "resolution unknown"
        return "\(range.minimum)..\(range.maximum) (\(resolution))"
    }

    private static func axisJSON(_ range: AxisRange) -> String {
        "{\"min\":\(range.minimum),\"max\":\(range.maximum),\"resolution\":\(range.resolution)}"
    }
}
