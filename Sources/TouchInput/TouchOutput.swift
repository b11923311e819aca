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
    private let fd: Int32
    private let owned: Bool

    /// Writes to `fd`; `owned`: closed in `deinit`.
    public init(fd: Int32, name: String, slotCount: Int, hasPressure: Bool = false, hasTouchMajor: Bool = false, owned: Bool = true) {
        self.fd = fd
        self.owned = owned
        devnode = name
        self.slotCount = slotCount
        self.hasPressure = hasPressure
        self.hasTouchMajor = hasTouchMajor
    }

    /// Opens `path` for writing.
    public convenience init(path: String, slotCount: Int, hasPressure: Bool = false, hasTouchMajor: Bool = false) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError.current("open", path: path) }
        self.init(fd: fd, name: path, slotCount: slotCount, hasPressure: hasPressure, hasTouchMajor: hasTouchMajor)
    }

    deinit {
        if owned { close(fd) }
    }

    public func write(_ type: UInt16, _ code: UInt16, _ value: Int32) throws(SystemError) {
        var event = input_event()
        event.type = type
        event.code = code
        event.value = value
        let written = withUnsafeBytes(of: &event) { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == MemoryLayout<input_event>.size else {
            throw SystemError("write", path: devnode, code: written < 0 ? errno : EIO)
        }
    }
}
