import LinuxSystem
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// swift-log to journald's native socket: one structured entry per record, with
/// `PRIORITY`, `SYSLOG_IDENTIFIER`, the message and the journal fields from metadata
/// (`JournalField`, `Logger.Metadata.journal`). A record the socket does not take goes to
/// stderr as `StderrLogHandler`'s journal line, so nothing is lost.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let socket: JournalSocket
    private let identifier: String
    private let fallback: StderrLogHandler

    /// `fallbackFD`: where records the socket does not take go (stderr, the journal's stream).
    public init(level: Logger.Level = .info, socket: JournalSocket, identifier: String, fallbackFD: Int32 = STDERR_FILENO) {
        self.logLevel = level
        self.socket = socket
        self.identifier = identifier
        self.fallback = StderrLogHandler(level: level, journal: true, fd: fallbackFD)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let bytes = entry(event, merged).bytes
        if bytes.count <= JournalEntry.maximumBytes && socket.send(bytes) { return }
        fallback.write(event.level, event.message, merged)
    }

    /// The record as one entry: the journal fields from `metadata`, the rest of it in
    /// `MESSAGE` as on stderr, and the source location as sd_journal_send(3) records it.
    func entry(_ event: LogEvent, _ metadata: Logger.Metadata) -> JournalEntry {
        var entry = JournalEntry()
        entry.append("MESSAGE", StderrLogHandler.text(event.message, metadata))
        entry.append("PRIORITY", "\(StderrLogHandler.priority(event.level))")
        entry.append("SYSLOG_IDENTIFIER", identifier)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where JournalField.isFieldName(key) {
            entry.append(key, "\(value)")
        }
        entry.append("CODE_FILE", event.file)
        entry.append("CODE_LINE", "\(event.line)")
        entry.append("CODE_FUNC", event.function)
        return entry
    }
}

/// A datagram socket connected to journald's native socket.
public final class JournalSocket: Sendable {
    /// Where journald listens for native entries.
    public static let defaultPath = "/run/systemd/journal/socket"
    // send(2) of one datagram is atomic, so loggers on any thread may share the socket.
    private nonisolated(unsafe) let fd: FileDescriptor

    public init(path: String = JournalSocket.defaultPath) throws(SystemError) {
        fd = try UnixSocket.make(datagram: true)
        try UnixSocket.connect(fd, to: path)
        // Room for the largest entry gestured sends (the kernel doubles it for overhead).
        UnixSocket.setSendBuffer(fd, JournalEntry.maximumBytes)
    }

    /// True when journald took the whole entry.
    func send(_ bytes: [UInt8]) -> Bool { UnixSocket.send(fd, bytes[...]) == bytes.count }

    /// True when `$JOURNAL_STREAM` (`device:inode`, set by systemd) names the file stderr
    /// is: stderr goes to the journal, so entries may go to its socket instead. A
    /// redirected stderr (`gestured 2>file` under a unit) keeps the text.
    public static func stderrIsJournal(_ environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
