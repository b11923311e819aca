import CUdev
import Glibc
import LinuxSystem

/// Owns a libudev context (`udev_new` / `udev_unref`).
final class UdevContext {
    let handle: OpaquePointer

    init() throws(SystemError) {
        guard let handle = udev_new() else { throw SystemError.current("udev_new", path: "libudev") }
        self.handle = handle
    }

    deinit { udev_unref(handle) }
}
