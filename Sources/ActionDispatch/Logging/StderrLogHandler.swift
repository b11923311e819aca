import Logging

#if canImport(Glibc)
import Glibc
#endif

/// swift-log to stderr, one write per line. Under journald (`$JOURNAL_STREAM` set) lines
/// carry a `<N>` syslog priority prefix and no timestamp (the journal adds its own);
/// on a terminal, a timestamp and the level name. Journal fields in the metadata
/// (`JournalField`) are left out of the text: only `JournalLogHandler` sends them.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let journal: Bool
    private let fd: Int32

    /// `journal`: format for journald (see the type's comment). `fd`: where lines go.
    public init(level: Logger.Level = .info, journal: Bool, fd: Int32 = STDERR_FILENO) {
        self.logLevel = level
        self.journal = journal
        self.fd = fd
    }

    /// Bootstraps swift-log for the process (call once, first thing in main): structured
    /// entries to journald's socket when stderr is the journal, text on stderr otherwise
    /// (and when that socket cannot be reached).
    public static func bootstrap(level: Logger.Level, environment: [String: String]) {
        let journal = environment["JOURNAL_STREAM"].map { !$0.isEmpty } ?? false
        let socket = JournalSocket.stderrIsJournal(environment) ? try? JournalSocket() : nil
        let identifier = CommandLine.arguments.first.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "gestured"
        LoggingSystem.bootstrap { _ in
            if let socket { return JournalLogHandler(level: level, socket: socket, identifier: identifier) }
            return StderrLogHandler(level: level, journal: journal)
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        write(event.level, event.message, metadata.merging(event.metadata ?? [:]) { $1 })
    }

    /// Writes one record's line in one write.
    func write(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata) {
        var bytes = Array(line(level, message, metadata).utf8)
        _ = Glibc.write(fd, &bytes, bytes.count)
    }

    /// One log line, newline included: `<4>message key=value` for the journal,
    /// `2026-01-01 12:00:00 warning message key=value` otherwise.
    func line(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata) -> String {
        var line = journal ? "<\(StderrLogHandler.priority(level))>" : StderrLogHandler.timestamp() + " \(level) "
        line += StderrLogHandler.text(message, metadata)
        // One record per line: a child's stderr must not forge further records.
        return String(line.map { $0 == "\n" ? " " : $0 }) + "\n"
    }

    /// The message and its metadata as `key=value` pairs, journal fields left out.
    static func text(_ message: Logger.Message, _ metadata: Logger.Metadata) -> String {
        let pairs = metadata.filter { !JournalField.isFieldName($0.key) }.sorted { $0.key < $1.key }
        return pairs.isEmpty ? "\(message)" : "\(message) " + pairs.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
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
