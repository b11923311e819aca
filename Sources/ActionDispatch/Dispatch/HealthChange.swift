import ConfigModel
import GestureCore
import JSONOutput

/// A panel's health changed: what `[device.on.STATE]` actions get, as message placeholders
/// and in `GESTURE_*` environment variables (`MessageTemplate.healthFieldNames`).
public struct HealthChange: Sendable, Equatable {
    public var device: DeviceID
    /// The panel's name and device node, as `status` shows them.
    public var name: String
    public var path: String
    public var state: HealthState
    public var reason: HealthReason
    public var time: Microseconds

    public init(device: DeviceID, name: String, path: String, state: HealthState, reason: HealthReason, time: Microseconds) {
        self.device = device
        self.name = name
        self.path = path
        self.state = state
        self.reason = reason
        self.time = time
    }
}

/// One field of a health change, resolved once from its placeholder name.
enum HealthField: String, CaseIterable, Sendable {
    case t, device, health, reason
    case deviceName = "device_name"
    case devicePath = "device_path"

    /// The field as plain text: `t` as the health line has it, the rest bare.
    func write(_ change: HealthChange, origin: Microseconds, into writer: inout JSONWriter) {
        switch self {
        case .t: writer.fixed(Double(change.time - origin) / 1_000_000, decimals: 3)
        case .device: writer.int(Int64(change.device.rawValue))
        case .health: writer.raw(change.state.description.utf8)
        case .reason: writer.raw(change.reason.description.utf8)
        case .deviceName: writer.raw(change.name.utf8)
        case .devicePath: writer.raw(change.path.utf8)
        }
        writer.clearSeparator()
    }
}
