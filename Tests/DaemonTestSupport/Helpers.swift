import ActionDispatch
// What the tests of the daemon's modules (SystemLoopTests, ActionDispatchTests,
// GestureDaemonTests) share: serving a loop until a condition holds, a listening socket,
// small configurations.
import CLinuxShims
import GestureConfig
import GestureCore
import LinuxSystem

#if canImport(Glibc)
import Glibc
import SystemLoop
#endif

/// Serves `loop` until `condition` holds or `ceiling` seconds pass; true when it held.
@discardableResult
public func serve(_ loop: EventLoop, ceiling seconds: Double = 10, until condition: () -> Bool) throws -> Bool {
    let end = MonotonicClock.now() + Microseconds(seconds * 1_000_000)
    while !condition() {
        guard MonotonicClock.now() < end else { return false }
        try loop.runOnce(timeoutMilliseconds: 20)
    }
    return true
}

/// A model with a root view, a "panel" view and one gesture per given type.
public func makeModel(_ gestures: [(String, GestureType)]) throws -> GestureModel {
    let views = [
        ViewSpec(name: "root", parent: nil, frame: Rect(x: 0, y: 0, width: 800, height: 600)),
        ViewSpec(name: "panel", parent: 0, frame: Rect(x: 0, y: 0, width: 400, height: 600)),
    ]
    let specs = gestures.map {
        GestureSpec(name: $0.0, view: 1, parameters: GestureDefaults.parameters(for: $0.1))
    }
    return try GestureModel(screen: ScreenSize(width: 800, height: 600), views: views, gestures: specs)
}

public func makeConfiguration(
    _ gestures: [(String, GestureType, [GestureState: [ActionSpec]])],
    settings: DaemonSettings = DaemonSettings()
) throws -> Configuration {
    Configuration(
        daemon: settings, model: try makeModel(gestures.map { ($0.0, $0.1) }), devices: [],
        actions: gestures.map { GestureActions(byState: $0.2) })
}

/// A Unix socket bound at `path`, read without blocking by the test.
public final class Listener {
    public let fd: FileDescriptor
    public let datagram: Bool

    public init(path: String, datagram: Bool) throws {
        fd = try UnixSocket.make(datagram: datagram)
        try UnixSocket.bind(fd, to: path)
        if !datagram { guard listen(fd.rawValue, 8) == 0 else { throw SystemError("listen", path) } }
        self.datagram = datagram
    }

    /// Accepts a waiting connection (stream), nil when none waits.
    public func accept() -> FileDescriptor? {
        guard !datagram else { return nil }
        try? fd.setNonBlocking()
        // CLOEXEC: a child spawned by a parallel test must not hold the connection open.
        let raw = cls_accept4(fd.rawValue, Int32(SOCK_CLOEXEC.rawValue))
        guard raw >= 0 else { return nil }
        let connection = FileDescriptor(raw)
        try? connection.setNonBlocking()
        return connection
    }
}
