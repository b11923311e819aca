import CEvdev
import Glibc
import LinuxSystem

/// One `/dev/input/eventN` opened through libevdev: non-blocking, close-on-exec, events
/// stamped on CLOCK_MONOTONIC. The daemon polls `fd` and calls `read(into:)` when it is
/// readable.
public final class EvdevDevice {
    /// What a `read(into:)` ended with.
    public enum ReadResult: Equatable, Sendable {
        /// Every pending event was read (EAGAIN); wait for `fd` to become readable again.
        case drained
        /// The device is gone (ENODEV: unplugged). Cancel its contacts and close it.
        case removed
    }

    public let path: String
    public let fd: Int32
    public let info: TouchDeviceInfo
    private let handle: OpaquePointer
    /// True between a SYN_DROPPED and the end of libevdev's sync events.
    private var syncing = false

    /// Opens `path`. Errors carry the path and errno text; a permission error says how to
    /// grant access.
    public init(path: String) throws(SystemError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError.current("open", path: path) }
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &handle)
        guard rc == 0, let handle else {
            close(fd)
            let hint = -rc == ENOTTY || -rc == EINVAL ? "this is not an evdev device (expected /dev/input/eventN)" : nil
            throw SystemError("libevdev_new_from_fd", path: path, code: -rc, hint: hint)
        }
        let clock = libevdev_set_clock_id(handle, CLOCK_MONOTONIC)
        guard clock == 0 else {
            libevdev_free(handle)
            close(fd)
            throw SystemError("libevdev_set_clock_id(CLOCK_MONOTONIC)", path: path, code: -clock)
        }
        self.path = path
        self.fd = fd
        self.handle = handle
        self.info = Self.describe(handle, devnode: path)
    }

    deinit {
        libevdev_free(handle)
        close(fd)
    }

    /// `phys` as the kernel reports it (`VirtualTouchscreen.isVirtual` tells gestured's own).
    public var phys: String? { libevdev_get_phys(handle).map { String(cString: $0) } }

    /// Takes the device for this process alone (`EVIOCGRAB`): nobody else (libinput, the
    /// compositor) receives its events until `ungrab` or until the fd closes, which the
    /// kernel does when the process dies.
    public func grab() throws(SystemError) {
        let rc = libevdev_grab(handle, LIBEVDEV_GRAB)
        guard rc == 0 else {
            throw SystemError(
                "EVIOCGRAB", path: path, code: -rc,
                hint: -rc == EBUSY ? "another program (another gestured?) has grabbed it" : nil)
        }
    }

    /// Gives the device back to every reader.
    public func ungrab() {
        _ = libevdev_grab(handle, LIBEVDEV_UNGRAB)
    }

    /// Seeds the device's normalizer with the values the kernel last reported (per slot,
    /// and the slot selected last), which events will not repeat. Protocol-A devices go
    /// through libmtdev, whose slots start empty.
    public func prime(_ normalizer: TouchNormalizer) {
        switch info.multitouchProtocol {
        case .b:
            for s in 0..<max(0, libevdev_get_num_slots(handle)) {
                func value(_ code: Int32) -> Int32 { libevdev_get_slot_value(handle, UInt32(s), UInt32(code)) }
                normalizer.prime(
                    slot: Int(s), x: value(ABS_MT_POSITION_X), y: value(ABS_MT_POSITION_Y), pressure: value(ABS_MT_PRESSURE),
                    touchMajor: value(ABS_MT_TOUCH_MAJOR), toolType: value(ABS_MT_TOOL_TYPE))
            }
            normalizer.prime(currentSlot: Int(libevdev_get_current_slot(handle)))
        case .singleTouch:
            normalizer.prime(
                slot: 0, x: libevdev_get_event_value(handle, UInt32(EV_ABS), UInt32(ABS_X)),
                y: libevdev_get_event_value(handle, UInt32(EV_ABS), UInt32(ABS_Y)))
        case .a:
            break
        }
    }

    /// A gate that opens once the panel has no contact down, from libevdev's view of its
    /// slots now (contacts down before gestured opened it included): the events read since
    /// then go to its `feed`.
    public func grabGate() -> GrabGate {
        let slots = libevdev_get_num_slots(handle)
        let trackingIDs =
            slots > 0
            ? (0..<slots).map { libevdev_get_slot_value(handle, UInt32($0), UInt32(ABS_MT_TRACKING_ID)) } : []
        let touching = libevdev_get_event_value(handle, UInt32(EV_KEY), UInt32(BTN_TOUCH)) != 0
        return GrabGate(trackingIDs: trackingIDs, slot: Int(max(0, libevdev_get_current_slot(handle))), touching: touching)
    }

    /// Appends every pending event to `events`, including libevdev's sync events after a
    /// `SYN_DROPPED` (which is appended too, so the normalizer cancels vanished contacts).
    /// Throws on read errors other than EAGAIN and ENODEV.
    public func read(into events: inout [RawInputEvent]) throws(SystemError) -> ReadResult {
        var event = input_event()
        while true {
            let flags = syncing ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL
            let rc = libevdev_next_event(handle, flags.rawValue, &event)
            switch rc {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue), Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
                syncing = rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
                events.append(
                    RawInputEvent(
                        type: event.type, code: event.code, value: event.value,
                        time: Int64(event.time.tv_sec) * 1_000_000 + Int64(event.time.tv_usec)))
            case -EAGAIN:
                if syncing {
                    syncing = false  // the sync events are done; go on with the normal queue
                } else {
                    return .drained
                }
            case -ENODEV:
                return .removed
            case -EINTR:
                continue
            default:
                throw SystemError("libevdev_next_event", path: path, code: -rc)
            }
        }
    }

    /// Reads identity and capabilities from libevdev.
    private static func describe(_ handle: OpaquePointer, devnode: String) -> TouchDeviceInfo {
        var caps = DeviceCapabilities()
        for property in 0...InputCodes.propMax where libevdev_has_property(handle, UInt32(property)) != 0 {
            caps.properties.insert(property)
        }
        for type in 1...InputCodes.evMax where libevdev_has_event_type(handle, UInt32(type)) != 0 {
            caps.types.insert(type)
            guard let max = InputCodes.maximumCode(ofType: type) else { continue }
            for code in 0...max where libevdev_has_event_code(handle, UInt32(type), UInt32(code)) != 0 {
                var axis: AbsInfo?
                if type == InputCodes.evAbs, let abs = libevdev_get_abs_info(handle, UInt32(code)) {
                    axis = AbsInfo(
                        value: abs.pointee.value, minimum: abs.pointee.minimum, maximum: abs.pointee.maximum,
                        fuzz: abs.pointee.fuzz, flat: abs.pointee.flat, resolution: abs.pointee.resolution)
                }
                caps.enable(type: type, code: code, info: axis)
            }
        }
        let name = libevdev_get_name(handle).map { String(cString: $0) } ?? ""
        return TouchDeviceInfo(
            name: name, bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)),
            capabilities: caps, devnode: devnode)
    }
}
