import CEvdev
import Glibc
import LinuxSystem

/// A touchscreen made through uinput that looks to udev, libinput and the compositor like
/// the panel it clones: the same name and ids (so udev rules and hwdb entries written for
/// the panel, such as `LIBINPUT_CALIBRATION_MATRIX`, still apply), the same axes, ranges,
/// resolution and slots, `INPUT_PROP_DIRECT`, `BTN_TOUCH` with `ABS_X`/`ABS_Y` for
/// single-touch readers, and no touchpad-only codes (`BTN_TOOL_FINGER` would make udev call
/// it a touchpad). `ABS_MT_TOOL_TYPE` is always advertised: libinput turns a slot that
/// becomes a palm into `TOUCH_CANCEL` only on devices that have it.
///
/// Its `phys` starts with `physPrefix`, which is how gestured (any instance) recognizes its
/// own virtual devices and never reads them. Destroyed with the object; the kernel also
/// destroys it when the process dies.
public final class VirtualTouchscreen {
    /// `phys` of every virtual touchscreen gestured makes.
    public static let physPrefix = "gestured-virtual"
    public static let uinputPath = "/dev/uinput"

    public let devnode: String
    public let slotCount: Int
    public let hasPressure: Bool
    public let hasTouchMajor: Bool
    private let device: OpaquePointer
    private let uinput: OpaquePointer
    /// The uinput descriptor libevdev made the device on (closed after it is destroyed).
    private let fd: FileDescriptor
    private var records: InputEventRecords

    /// Creates the clone of `info` (a panel opened through `EvdevDevice`). The error for a
    /// `/dev/uinput` that cannot be opened says how to grant access.
    public init(cloning info: TouchDeviceInfo, uinputPath: String = VirtualTouchscreen.uinputPath) throws(SystemError) {
        let fd = try Self.openUinput(uinputPath)
        let raw = fd.rawValue
        guard let device = libevdev_new() else {
            throw SystemError("libevdev_new", path: uinputPath, code: ENOMEM)
        }
        libevdev_set_name(device, info.name)
        let physSet = cevdev_uinput_set_phys(raw, Self.physPrefix + "/" + (info.devnode ?? "?"))
        guard physSet == 0 else {
            let code = errno
            libevdev_free(device)
            throw SystemError("ioctl(UI_SET_PHYS)", path: uinputPath, code: code)
        }
        libevdev_set_id_bustype(device, Int32(info.bus))
        libevdev_set_id_vendor(device, Int32(info.vendor))
        libevdev_set_id_product(device, Int32(info.product))
        libevdev_set_id_version(device, Int32(info.version))
        libevdev_enable_property(device, UInt32(INPUT_PROP_DIRECT))
        libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(BTN_TOUCH), nil)
        let slots = max(1, info.slotCount)
        func enable(_ code: Int32, _ minimum: Int32, _ maximum: Int32, resolution: Int32 = 0, fuzz: Int32 = 0) {
            var abs = input_absinfo(value: 0, minimum: minimum, maximum: maximum, fuzz: fuzz, flat: 0, resolution: resolution)
            libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(code), &abs)
        }
        func fuzz(_ code: UInt16) -> Int32 { info.capabilities.absInfo[code]?.fuzz ?? 0 }
        let x = info.x
        let y = info.y
        enable(ABS_X, x.minimum, x.maximum, resolution: x.resolution)
        enable(ABS_Y, y.minimum, y.maximum, resolution: y.resolution)
        enable(ABS_MT_SLOT, 0, Int32(slots - 1))
        enable(ABS_MT_POSITION_X, x.minimum, x.maximum, resolution: x.resolution, fuzz: fuzz(InputCodes.absMTPositionX))
        enable(ABS_MT_POSITION_Y, y.minimum, y.maximum, resolution: y.resolution, fuzz: fuzz(InputCodes.absMTPositionY))
        enable(ABS_MT_TRACKING_ID, 0, 65535)
        enable(ABS_MT_TOOL_TYPE, 0, Int32(MT_TOOL_MAX))
        let pressure = info.capabilities.absInfo[InputCodes.absMTPressure]
        if let pressure {
            enable(ABS_MT_PRESSURE, pressure.minimum, pressure.maximum, resolution: pressure.resolution)
            enable(ABS_PRESSURE, pressure.minimum, pressure.maximum, resolution: pressure.resolution)
        }
        let major = info.capabilities.absInfo[InputCodes.absMTTouchMajor]
        if let major { enable(ABS_MT_TOUCH_MAJOR, major.minimum, major.maximum, resolution: major.resolution) }
        var handle: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(device, raw, &handle)
        guard rc == 0, let handle else {
            libevdev_free(device)
            throw SystemError("libevdev_uinput_create_from_device", path: uinputPath, code: -rc, hint: Self.accessHint(-rc))
        }
        self.device = device
        self.uinput = handle
        self.fd = fd
        devnode = libevdev_uinput_get_devnode(handle).map { String(cString: $0) } ?? "?"
        slotCount = slots
        hasPressure = pressure != nil
        hasTouchMajor = major != nil
        records = InputEventRecords(slots: slots)
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        libevdev_free(device)
    }

    /// Writes one frame (ending in `SYN_REPORT`) to the uinput descriptor in one `write(2)`;
    /// the kernel hands it on at its `SYN_REPORT`.
    public func write(_ frame: [RawInputEvent]) throws(SystemError) {
        try records.write(frame, to: fd, subject: devnode)
    }

    /// True for a device gestured made (this instance or another): its `phys`.
    public static func isVirtual(phys: String?) -> Bool { phys?.hasPrefix(physPrefix) ?? false }

    /// `/dev/uinput` opened for a new device; the error says how to grant access.
    static func openUinput(_ path: String) throws(SystemError) -> FileDescriptor {
        let raw = open(path, O_RDWR | O_CLOEXEC)
        guard raw >= 0 else {
            let code = errno
            throw SystemError("open", path: path, code: code, hint: accessHint(code))
        }
        return FileDescriptor(raw)
    }

    static func accessHint(_ code: Int32) -> String? {
        switch code {
        case EACCES, EPERM:
            "passthrough and keys actions need read-write access to /dev/uinput: the systemd unit grants it (DeviceAllow=/dev/uinput rw "
                + "and the udev rule 70-gestured-uinput.rules, group gestured-uinput); by hand: sudo setfacl -m u:$USER:rw /dev/uinput"
        case ENOENT, ENODEV:
            "the kernel has no uinput: sudo modprobe uinput (and add uinput to /etc/modules-load.d/)"
        default:
            nil
        }
    }
}
