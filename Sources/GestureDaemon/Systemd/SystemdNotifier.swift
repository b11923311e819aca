import ActionDispatch
import CLinuxShims
import GestureCore
import LinuxSystem
import SystemLoop
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// sd_notify(3) without libsystemd: datagrams to `$NOTIFY_SOCKET` (a path, or an abstract
/// name written with a leading `@`).
public final class SystemdNotifier {
    public let socketPath: String
    /// How often to send WATCHDOG=1: half of `$WATCHDOG_USEC`, when the watchdog is on
    /// for this process (`$WATCHDOG_PID` unset or ours).
    public let watchdogInterval: Microseconds?
    private let fd: FileDescriptor
    private var timer: DeadlineTimer?

    /// Nil when not started by systemd with `Type=notify` (no `$NOTIFY_SOCKET`).
    public init?(environment: [String: String]) throws(SystemError) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        socketPath = path
        fd = try UnixSocket.make(datagram: true)
        if let usec = environment["WATCHDOG_USEC"].flatMap({ Microseconds($0) }), usec > 0,
            environment["WATCHDOG_PID"].map({ pid_t($0) == getpid() }) ?? true
        {
            watchdogInterval = usec / 2
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends one state string such as `READY=1`, `RELOADING=1`, `STATUS=...`.
    public func notify(_ state: String) throws(SystemError) {
        let bytes = Array(state.utf8)
        let sent = try UnixSocket.withAddress(socketPath) { address, length in
            bytes.withUnsafeBytes { sendto(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
        }
        guard sent == bytes.count else {
            let code = sent < 0 ? errno : EMSGSIZE
            throw SystemError("sending \(state) to NOTIFY_SOCKET", socketPath, errno: code, hint: Self.hint(code))
        }
    }

    /// Sends `state` and reports a failure through `warn` only when the previous send
    /// succeeded: a systemd too busy to drain its socket drops STATUS= and WATCHDOG=1
    /// datagrams, and that is one log line, not one per ping.
    public func send(_ state: String, warn: (SystemError) -> Void) {
        do {
            try notify(state)
            failing = false
        } catch {
            if !failing { warn(error) }
            failing = true
        }
    }

    private var failing = false

    private static func hint(_ code: Int32) -> String {
        switch code {
        case EAGAIN:
            return "systemd is not reading its notify socket fast enough; this message is dropped"
                + " (if it was a watchdog ping, systemd may stop the service)"
        case EMSGSIZE:
            return "the message is longer than the socket takes"
        default:
            return "NOTIFY_SOCKET names no socket systemd listens on; it is set by systemd for Type=notify services"
                + " (unset it when starting gestured by hand)"
        }
    }

    /// Pings the watchdog now and every `watchdogInterval` on `loop` (the only periodic
    /// wake-up of an idle daemon). Does nothing when the watchdog is off.
    /// A failing ping is reported through `onError` as `send` reports it.
    public func startWatchdog(on loop: EventLoop, onError: @escaping (SystemError) -> Void) throws(SystemError) {
        guard let interval = watchdogInterval else { return }
        let timer = try loop.makeTimer { [unowned self, unowned loop] in
            self.send("WATCHDOG=1", warn: onError)
            self.timer?.set(loop.now() + interval)
        }
        self.timer = timer
        try notify("WATCHDOG=1")
        timer.set(loop.now() + interval)
    }
}
