import CMtdev
import Glibc

/// libmtdev fed by hand: converts a protocol-A event stream (anonymous contacts separated by
/// `SYN_MT_REPORT`) into protocol B (slots and tracking ids), as libinput does. Configured
/// from the device's capabilities, so recordings go through the same path as live devices.
final class MtdevConverter {
    /// libmtdev tracks at most this many contacts (its `DIM_FINGER`).
    static let slotCount = 32

    private let handle: UnsafeMutablePointer<mtdev>

    /// Fails when libmtdev cannot allocate or initialize its state.
    init?(capabilities: DeviceCapabilities) {
        guard let handle = mtdev_new() else { return nil }
        guard mtdev_init(handle) == 0 else {
            mtdev_delete(handle)
            return nil
        }
        self.handle = handle
        // The per-contact axes libmtdev knows (ABS_MT_TOUCH_MAJOR through ABS_MT_PRESSURE).
        for code in InputCodes.absMTTouchMajor...InputCodes.absMTPressure {
            guard capabilities.hasAbs(code), let info = capabilities.absInfo[code] else { continue }
            let c = Int32(code)
            mtdev_set_mt_event(handle, c, 1)
            mtdev_set_abs_minimum(handle, c, info.minimum)
            mtdev_set_abs_maximum(handle, c, info.maximum)
            mtdev_set_abs_fuzz(handle, c, info.fuzz)
            mtdev_set_abs_resolution(handle, c, info.resolution)
        }
        // What mtdev_configure would derive from the fd: MT positions present, no slots.
        handle.pointee.caps.has_mtdata = 1
        handle.pointee.caps.has_slot = 0
    }

    // mtdev_init allocated the state: close frees it, delete the struct (valgrind caught
    // mtdev_delete alone leaking 38 KB per converter).
    deinit { mtdev_close_delete(handle) }

    /// Queues one protocol-A event.
    func put(_ event: RawInputEvent) {
        var raw = input_event()
        raw.time.tv_sec = Int(event.time / 1_000_000)
        raw.time.tv_usec = Int(event.time % 1_000_000)
        raw.type = event.type
        raw.code = event.code
        raw.value = event.value
        mtdev_put_event(handle, &raw)
    }

    /// The next converted protocol-B event, or nil when the queue is empty.
    func next() -> RawInputEvent? {
        guard mtdev_empty(handle) == 0 else { return nil }
        var raw = input_event()
        mtdev_get_event(handle, &raw)
        return RawInputEvent(
            type: raw.type, code: raw.code, value: raw.value,
            time: Int64(raw.time.tv_sec) * 1_000_000 + Int64(raw.time.tv_usec))
    }
}
