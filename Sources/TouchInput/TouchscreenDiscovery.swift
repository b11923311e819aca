import CUdev
import Glibc
import LinuxSystem

/// Finds input devices through libudev (`input` subsystem, `eventN` nodes) and tells which
/// are touchscreens.
public final class TouchscreenDiscovery {
    private let udev: UdevContext

    public init() throws(SystemError) {
        udev = try UdevContext()
    }

    /// Every input event node udev knows, touchscreen or not, sorted by devnode.
    public func inputDevices() throws(SystemError) -> [DiscoveredDevice] {
        guard let enumerate = udev_enumerate_new(udev.handle) else {
            throw SystemError.current("udev_enumerate_new", path: "/sys/class/input")
        }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_add_match_sysname(enumerate, "event*")
        let rc = udev_enumerate_scan_devices(enumerate)
        guard rc >= 0 else { throw SystemError("udev_enumerate_scan_devices", path: "/sys/class/input", code: -rc) }
        var devices: [DiscoveredDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current),
                let handle = udev_device_new_from_syspath(udev.handle, syspath),
                let device = UdevDevice(handle).describe()
            {
                devices.append(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return devices.sorted { $0.devnode.count != $1.devnode.count ? $0.devnode.count < $1.devnode.count : $0.devnode < $1.devnode }
    }

    /// The touchscreens among `inputDevices()`.
    public func touchscreens() throws(SystemError) -> [DiscoveredDevice] {
        try inputDevices().filter(\.isTouchscreen)
    }

    /// A monitor for input devices being added and removed.
    public func monitor() throws(SystemError) -> UdevMonitor {
        try UdevMonitor(udev: udev)
    }
}
