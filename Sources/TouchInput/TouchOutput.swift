import CEvdev
import Glibc
import LinuxSystem

/// Where a touch forwarder writes what the application sees: a `VirtualTouchscreen` (uinput)
/// in the daemon, an `InputEventFile` in tests and benchmarks. One evdev event per call;
/// `SYN_REPORT` ends a frame.
public protocol TouchOutput: AnyObject {
    /// The node applications read (status, and never reading it back).
    var devnode: String { get }
    var slotCount: Int { get }
    var hasPressure: Bool { get }
    var hasTouchMajor: Bool { get }
    func write(_ type: UInt16, _ code: UInt16, _ value: Int32) throws(SystemError)
}

extension VirtualTouchscreen: TouchOutput {}

/// `struct input_event` records written to any descriptor (a pipe, `/dev/null`), one
/// `write(2)` per event with a zero time, exactly as libevdev writes them to uinput: the
/// forwarder's encoding and system calls without a uinput device (tests, `make bench`).
public final class InputEventFile: TouchOutput {
    public let devnode: String
    public let slotCount: Int
    public let hasPressure: Bool
    public let hasTouchMajor: Bool
    private let fd: FileDescriptor

    /// Writes to `fd`, named `name` in errors and status.
    public init(fd: FileDescriptor, name: String, slotCount: Int, hasPressure: Bool = false, hasTouchMajor: Bool = false) {
        self.fd = fd
        devnode = name
        self.slotCount = slotCount
        self.hasPressure = hasPressure
        self.hasTouchMajor = hasTouchMajor
    }

    /// Opens `path` for writing.
    public convenience init(path: String, slotCount: Int, hasPressure: Bool = false, hasTouchMajor: Bool = false) throws(SystemError) {
        let fd = try FileDescriptor.open(path, O_WRONLY)
        self.init(fd: fd, name: path, slotCount: slotCount, hasPressure: hasPressure, hasTouchMajor: hasTouchMajor)
    }

    public func write(_ type: UInt16, _ code: UInt16, _ value: Int32) throws(SystemError) {
        var event = input_event()
        event.type = type
        event.code = code
        event.value = value
        try withUnsafeBytes(of: &event) { bytes throws(SystemError) in try fd.write(all: bytes, subject: devnode) }
    }
}
