import GestureControl
import GestureCore

/// The outcome of a reload.
struct ReloadRecord {
    /// Monotonic time of the reload.
    var at: Microseconds
    /// Nil when the new file was taken; else every problem, one per line.
    var error: String?
}

/// How reloads went since start, for `status`: the last one and how many were taken or
/// refused.
struct ReloadHistory {
    private(set) var last: ReloadRecord?
    /// The last reload taken: when the config in force was loaded (nil: at the start).
    private var lastTaken: Microseconds?
    private var counts = MetricValues(DaemonMetrics.reloadCounts)

    mutating func record(_ reload: ReloadRecord) {
        last = reload
        if reload.error == nil { lastTaken = reload.at }
        counts[reload.error == nil ? DaemonMetrics.reloadsTaken : DaemonMetrics.reloadsRefused] += 1
    }

    /// `status.config`, times counted from `origin`.
    func status(path: String, files: [String], origin: Microseconds) -> ConfigStatus {
        var status = ConfigStatus(
            path: path, files: files, lastReload: last.map { ReloadStatus(at: uptimeSeconds($0.at, origin: origin), error: $0.error) })
        status.reloads = counts
        status.loadedAt = lastTaken.map { uptimeSeconds($0, origin: origin) } ?? 0
        return status
    }
}

/// Seconds from `origin` to `time`, to the millisecond: how `status` writes times.
func uptimeSeconds(_ time: Microseconds, origin: Microseconds) -> Double { Double((time - origin) / 1000) / 1000 }
