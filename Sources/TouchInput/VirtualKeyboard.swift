import CEvdev
import Glibc
import LinuxSystem

/// gestured's own keyboard, made through uinput for `keys` actions: named as the daemon says
/// (`KeyAction.keyboardName`, "gestured keyboard"), with exactly the keys the config's actions use and nothing
/// else (no pointer, no axes, no touch: a pointer device would turn GNOME's touch mode off),
/// and no `EV_REP`, so the kernel never repeats its keys (the compositor does, as for a real
/// keyboard). Its `phys` is `gestured-keyboard`, apart from the clones' (`gestured-virtual/`,
/// whose udev rule copies a panel's properties): not a touchscreen, gestured never reads it.
/// Destroyed with the object; the kernel destroys it when the process dies, and the
/// compositor then lets go of whatever it held.
public final class VirtualKeyboard {
    public let devnode: String
    /// The key codes it has, ascending.
    public let codes: [UInt16]
    private let device: OpaquePointer
    private let uinput: OpaquePointer
    private let fd: FileDescriptor
    private var records = InputEventRecords(slots: 1)

    public init(name: String, codes: [UInt16], uinputPath: String = VirtualTouchscreen.uinputPath) throws(SystemError) {
        let fd = try VirtualTouchscreen.openUinput(uinputPath)
        guard let device = libevdev_new() else {
            throw SystemError("libevdev_new", path: uinputPath, code: ENOMEM)
        }
        libevdev_set_name(device, name)
        guard cevdev_uinput_set_phys(fd.rawValue, "gestured-keyboard") == 0 else {
            let code = errno
            libevdev_free(device)
            throw SystemError("ioctl(UI_SET_PHYS)", path: uinputPath, code: code)
        }
        libevdev_set_id_bustype(device, Int32(BUS_VIRTUAL))
        let sorted = Array(Set(codes)).sorted()
        for code in sorted { libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(code), nil) }
        var handle: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(device, fd.rawValue, &handle)
        guard rc == 0, let handle else {
            libevdev_free(device)
            throw SystemError(
                "libevdev_uinput_create_from_device", path: uinputPath, code: -rc, hint: VirtualTouchscreen.accessHint(-rc))
        }
        self.device = device
        self.uinput = handle
        self.fd = fd
        self.codes = sorted
        devnode = libevdev_uinput_get_devnode(handle).map { String(cString: $0) } ?? "?"
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        libevdev_free(device)
    }

    /// Writes one frame of key transitions, then `SYN_REPORT`, in one `write(2)`.
    public func write(_ keys: [(code: UInt16, down: Bool)]) throws(SystemError) {
        var frame = keys.map { RawInputEvent(type: UInt16(EV_KEY), code: $0.code, value: $0.down ? 1 : 0, time: 0) }
        frame.append(RawInputEvent(type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0, time: 0))
        try records.write(frame, to: fd, subject: devnode)
    }
}
