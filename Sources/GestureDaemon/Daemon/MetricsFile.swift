import ActionDispatch
import GestureCore
import LinuxSystem
import Logging

#if canImport(Glibc)
import Glibc
import SystemLoop
#endif

/// `[daemon] metrics_file`: the Prometheus exposition, rewritten every `metrics_interval`
/// for node_exporter's textfile collector. Each write goes to `PATH.tmp` in the same
/// directory (the collector reads only `*.prom`) and is renamed over the file, so a reader
/// never sees half of one. The file is removed when the daemon stops or the key goes.
final class MetricsFile {
    private(set) var path: String?
    private var interval: Microseconds = 15_000_000
    private var timer: DeadlineTimer!
    private let logger: Logger
    private let render: () -> [UInt8]
    private let loop: EventLoop
    private var failures = FailureRun()

    init(loop: EventLoop, logger: Logger, render: @escaping () -> [UInt8]) throws(SystemError) {
        self.logger = logger
        self.render = render
        self.loop = loop
        timer = try loop.makeTimer { [unowned self] in self.write() }
    }

    /// Takes the config's settings (at start and after a reload) and writes at once.
    func configure(path: String?, interval: Microseconds) {
        if let old = self.path, old != path { unlink(old) }
        self.path = path
        self.interval = interval
        write()
    }

    /// Writes the file now and arms the next write; nothing without a path.
    func write() {
        guard let path else { return timer.set(nil) }
        do {
            try Self.replace(path, with: render())
            if let count = failures.end() { logger.notice("metrics: \(path) written again after \(count) failures") }
        } catch {
            if failures.fail() { logger.warning("metrics: \(error)\(Self.advice(error)); retrying every \(interval / 1_000_000) s") }
        }
        timer.set(loop.now() + interval)
    }

    /// What to do about a failed write, for the errors the service's sandbox and the
    /// collector's directory cause.
    static func advice(_ error: SystemError) -> String {
        switch error.code {
        case EROFS: " (the unit's sandbox keeps it read-only: name the directory in ReadWritePaths=, see gestured-metrics.conf)"
        case EACCES: " (let the daemon's user write the directory, e.g. setfacl -m u:gestured:rwx DIR)"
        default: ""
        }
    }

    /// Removes the file (at stop: stale numbers must not look live).
    func remove() {
        timer.set(nil)
        if let path { unlink(path) }
    }

    /// Writes `text` to `path.tmp`, readable by the collector's user, and renames it over `path`.
    static func replace(_ path: String, with text: [UInt8]) throws(SystemError) {
        let temporary = path + ".tmp"
        do throws(SystemError) {
            try WholeFile.write(bytes: text, to: temporary)
            // The unit's UMask=0077 narrowed the mode; node_exporter runs as another user.
            guard chmod(temporary, 0o644) == 0 else { throw SystemError("chmod", temporary) }
            guard rename(temporary, path) == 0 else { throw SystemError("rename to \(path)", temporary) }
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
