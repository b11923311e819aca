import CUdev
import Glibc
import LinuxSystem

/// A device appearing or disappearing.
public enum HotplugEvent: Equatable, Sendable {
    case added(DiscoveredDevice)
    case removed(devnode: String)
}

/// udev's hotplug events for input event nodes. Poll `fd` (non-blocking, close-on-exec) in
/// the event loop and call `receive()` until it returns nil.
public final class UdevMonitor {
    private let udev: UdevContext
    private let handle: OpaquePointer
    public let fd: Int32

    init(udev: UdevContext) throws(SystemError) {
        // "udev": events after udevd processed them (permissions and properties are set).
        guard let handle = udev_monitor_new_from_netlink(udev.handle, "udev") else {
            throw SystemError.current("udev_monitor_new_from_netlink", path: "netlink:udev")
        }
        var rc = udev_monitor_filter_add_match_subsystem_devtype(handle, "input", nil)
        if rc >= 0 { rc = udev_monitor_enable_receiving(handle) }
        guard rc >= 0 else {
            udev_monitor_unref(handle)
            throw SystemError("udev_monitor_enable_receiving", path: "netlink:udev", code: -rc)
        }
        let fd = udev_monitor_get_fd(handle)
        // libudev opens its socket non-blocking and close-on-exec; make sure of both.
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.udev = udev
        self.handle = handle
        self.fd = fd
    }

    deinit { udev_monitor_unref(handle) }

    /// The next add or remove of an event node, or nil when nothing is pending.
    public func receive() -> HotplugEvent? {
        while let raw = udev_monitor_receive_device(handle) {
            let device = UdevDevice(raw)
            let action = udev_device_get_action(raw).map(String.init(cString:))
            switch action {
            case "add":
                if let described = device.describe() { return .added(described) }
            case "remove":
                if let sysname = udev_device_get_sysname(raw).map(String.init(cString:)), sysname.hasPrefix("event"),
                    let devnode = udev_device_get_devnode(raw).map(String.init(cString:))
                {
                    return .removed(devnode: devnode)
                }
            default:
                continue
            }
        }
        return nil
    }
}
