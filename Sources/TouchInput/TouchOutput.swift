import CEvdev
import Glibc
import LinuxSystem

/// Where a touch forwarder writes what the application sees: a `VirtualTouchscreen` (uinput)
/// in the daemon, an `InputEventFile` in tests and benchmarks. One evdev frame per call.
public protocol TouchOutput: AnyObject {
    /// The node applications read (status, and never reading it back).
    var devnode: String { get }
    var slotCount: Int { get }
    var hasPressure: Bool { get }
    var hasTouchMajor: Bool { get }
    /// One frame, ending in `SYN_REPORT`, in one `write(2)` (the kernel stamps its time).
    func write(_ frame: [RawInputEvent]) throws(SystemError)
}

extension VirtualTouchscreen: TouchOutput {}

/// `struct input_event` records written to any descriptor (a pipe, `/dev/null`), a frame
/// per `write(2)` with a zero time, exactly as the daemon writes them to uinput: the
/// forwarder's encoding and system calls without a uinput device (tests, `make bench`).
public final class InputEventFile: TouchOutput {
    public let devnode: String
    public let slotCount: Int
    public let hasPressure: Bool
    public let hasTouchMajor: Bool
    private let fd: FileDescriptor
    private var records: InputEventRecords

    /// Writes to `fd`, named `name` in errors and status.
    public init(fd: FileDescriptor, name: String, slotCount: Int, hasPressure: Bool = false, hasTouchMajor: Bool = false) {
        self.fd = fd
        devnode = name
        self.slotCount = slotCount
        self.hasPressure = hasPressure
        self.hasTouchMajor = hasTouchMajor
        records = InputEventRecords(slots: slotCount)
    }

    /// Opens `path` for writing.
    public convenience init(path: String, slotCount: Int, hasPressure: Bool = false, hasTouchMajor: Bool = false) throws(SystemError) {
        let fd = try FileDescriptor.open(path, O_WRONLY)
        self.init(fd: fd, name: path, slotCount: slotCount, hasPressure: hasPressure, hasTouchMajor: hasTouchMajor)
    }

    public func write(_ frame: [RawInputEvent]) throws(SystemError) {
        try records.write(frame, to: fd, subject: devnode)
    }
}

/// One frame as `struct input_event` records with a zero time, written in one `write(2)`:
/// uinput takes any number of whole records per write (libevdev's
/// `libevdev_uinput_write_event` makes one per event, some 30 for ten moving fingers).
/// The records' buffer is made for the largest frame of the device's slots and reused, so
/// a frame allocates nothing.
struct InputEventRecords {
    private var records: [input_event] = []

    /// A frame sets at most each slot's slot, tool, tracking id, position, pressure and size
    /// (the encoder's bound), plus the pointer emulation and `SYN_REPORT`.
    init(slots: Int) { records.reserveCapacity(8 * max(1, slots) + 8) }

    /// Writes `frame`, retrying a write that was interrupted or short; fails with the errno
    /// of the first that failed (`EAGAIN` on a full non-blocking descriptor), naming `subject`.
    mutating func write(_ frame: [RawInputEvent], to fd: FileDescriptor, subject: String) throws(SystemError) {
        records.removeAll(keepingCapacity: true)
        for i in 0..<frame.count {
            var record = input_event()
            record.type = frame[i].type
            record.code = frame[i].code
            record.value = frame[i].value
            records.append(record)
        }
        // `Array.withUnsafeBytes` rethrows untyped: the error comes out as itself through a result.
        let written = records.withUnsafeBytes { bytes in
            Result { () throws(SystemError) in try fd.write(all: bytes, subject: subject) }
        }
        try written.get()
    }
}
