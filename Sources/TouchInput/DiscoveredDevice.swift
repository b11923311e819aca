import Glibc

/// An input event node as udev and sysfs describe it, without opening it (so it can be
/// listed even when the user may not read it).
public struct DiscoveredDevice: Equatable, Sendable {
    /// `/dev/input/eventN`.
    public var devnode: String
    /// `/sys/devices/.../eventN`.
    public var syspath: String
    /// Name, ids and capabilities from sysfs; axis ranges are unknown (all 0) until the
    /// device is opened with `EvdevDevice`.
    public var info: TouchDeviceInfo
    /// udev's properties, e.g. `ID_PATH`, `ID_INPUT_TOUCHSCREEN`, `ID_VENDOR_ID`.
    public var properties: [String: String]

    public init(devnode: String, syspath: String, info: TouchDeviceInfo, properties: [String: String]) {
        self.devnode = devnode
        self.syspath = syspath
        self.info = info
        self.properties = properties
    }

    /// udev's `ID_INPUT_TOUCHSCREEN=1`, or the kernel's description (`INPUT_PROP_DIRECT`
    /// with MT positions, or udev's rule applied to the sysfs capabilities).
    public var isTouchscreen: Bool { properties["ID_INPUT_TOUCHSCREEN"] == "1" || info.isTouchscreen }

    /// True when this process may open the node for reading.
    public var isReadable: Bool { access(devnode, R_OK) == 0 }
}
