import Logging

#if canImport(Glibc)
import Glibc
#endif

/// swift-log to stderr, one write per line. Under journald (`$JOURNAL_STREAM` set) lines
/// carry a `<N>` syslog priority prefix and no timestamp (the journal adds its own);
/// on a terminal, a timestamp and the level name.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let journal: Bool

    /// `journal`: format for journald (see the type's comment).
    public init(level: Logger.Level = .info, journal: Bool) {
        self.logLevel = level
        self.journal = journal
    }

    /// Bootstraps swift-log for the process (call once, first thing in main).
    public static func bootstrap(level: Logger.Level, environment: [String: String]) {
        let journal = environment["JOURNAL_STREAM"].map { !$0.isEmpty } ?? false
        LoggingSystem.bootstrap { _ in StderrLogHandler(level: level, journal: journal) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var bytes = Array(line(event.level, event.message, metadata.merging(event.metadata ?? [:]) { $1 }).utf8)
        _ = write(STDERR_FILENO, &bytes, bytes.count)
    }

    /// One log line, newline included: `<4>message key=value` for the journal,
    /// `2026-01-01 12:00:00 warning message key=value` otherwise.
    func line(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata) -> String {
        var line = journal ? "<\(StderrLogHandler.priority(level))>" : StderrLogHandler.timestamp() + " \(level) "
        line += "\(message)"
        if !metadata.isEmpty {
            line += " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        // One record per line: a child's stderr must not forge further records.
        return String(line.map { $0 == "\n" ? " " : $0 }) + "\n"
    }

    /// sd-daemon(3) priorities.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
