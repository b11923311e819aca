import ActionDispatch
import GestureControl
import GestureCore
import LinuxSystem
import Logging
import SystemLoop
import TouchInput
import TouchPipeline

#if canImport(Glibc)
import Glibc
#endif

/// A touchscreen's raw events from a pipe or file instead of a device node
/// (`gestured --stream FILE --desc DESC`): `struct input_event` records as
/// `/dev/input/eventN` gives them, e.g. `ssh kiosk cat /dev/input/event5 | gestured
/// --stream - --desc kiosk.desc`, for the device that DESC (evemu-describe) describes.
/// Events are stamped when they arrive, as a live device's are read: the sender's clock is
/// not this one. At the end of the stream the device is detached, as if unplugged; a named
/// pipe never ends.
final class StreamInput: InputSource {
    /// Bytes asked of one read: 170 records, a few frames of ten fingers.
    static let readSize = 4096

    let path: String
    private let fd: FileDescriptor
    private let loop: EventLoop
    private let pipeline: GesturePipeline
    private let logger: Logger
    private let id: DeviceID
    private var attached = true
    private var watched = true
    /// Reads land here, after the `pending` bytes of a record that arrived in pieces.
    private var buffer = [UInt8](repeating: 0, count: readSize + RawInputEvent.recordSize)
    private var pending = 0

    /// Opens `path` ("-": standard input) and attaches the device of `descPath`.
    init(path: String, descPath: String, loop: EventLoop, pipeline: GesturePipeline, logger: Logger) throws(StartupError) {
        let info: TouchDeviceInfo
        do {
            info = try EvemuRecording.read(path: descPath).info
        } catch {
            throw StartupError(source: "stream", message: "\(error)")
        }
        // A named pipe is opened for writing too: one with no writer yet reads as ended, and
        // so it stays open for one writer after another (the device stays attached).
        var status = stat()
        let fifo = path != "-" && stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
        let raw =
            path == "-"
            ? fcntl(0, F_DUPFD_CLOEXEC, 3)
            : open(path, (fifo ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK)
        guard raw >= 0 else {
            throw StartupError(source: "stream", message: "\(SystemError("open", path))")
        }
        fd = FileDescriptor(raw)
        let id = try pipeline.attachDevice(info, source: "stream", path: descPath, logger: logger)
        self.path = path
        self.loop = loop
        self.pipeline = pipeline
        self.logger = logger
        self.id = id
        do {
            try fd.setNonBlocking()
        } catch {
            throw StartupError(source: "stream", message: "\(error)")
        }
        // A FIFO held open for writing never ends: its writers come and go unseen.
        let source = path == "-" ? "standard input" : fifo ? "FIFO \(path); it stays open across writers" : path
        logger.notice("stream: reading \(info.name) from \(source)")
        do {
            try loop.register(fd: raw) { [unowned self] _ in self.drain() }
        } catch {
            // A regular file (or /dev/null) cannot be watched: all of it is there, so it is
            // read at once, and it ends.
            guard error.code == EPERM else { throw StartupError(source: "stream", message: "\(error)") }
            watched = false
            drain()
        }
    }

    func drain() {
        guard attached, let index = pipeline.index(of: id) else { return }
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                retryingInterrupted { read(fd.rawValue, bytes.baseAddress! + pending, Self.readSize) }
            }
            if count < 0 {
                if errno == EAGAIN { return }
                return detach("stream: \(SystemError("read", path))")
            }
            guard count > 0 else { return detach("stream: end of \(path); the device is detached") }
            let now = loop.now()
            let filled = pending + count
            let whole = filled - filled % RawInputEvent.recordSize
            buffer.withUnsafeMutableBytes { bytes in
                for offset in stride(from: 0, to: whole, by: RawInputEvent.recordSize) {
                    pipeline.feed(
                        RawInputEvent(
                            type: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self),
                            code: bytes.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self),
                            value: bytes.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self),
                            time: now),
                        device: index)
                }
                // The start of a record that arrived in pieces goes to the front.
                if filled > whole { bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + whole, byteCount: filled - whole) }
            }
            pending = filled - whole
            // A short read emptied the pipe; the loop (level-triggered) wakes again for more.
            if watched && count < Self.readSize { return }
        }
    }

    private func detach(_ message: String) {
        attached = false
        if watched { loop.unregister(fd: fd.rawValue) }
        pipeline.removeDevice(id, at: loop.now())
        logger.notice("\(message)")
    }

    func path(of device: DeviceID) -> String? { device == id ? path : nil }

    var unusable: [UnusableDevice] { [] }

    var grabImpossible: String? { "not possible: the input is a stream, not a device" }
}
