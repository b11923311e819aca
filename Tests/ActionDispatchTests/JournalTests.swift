import DaemonTestSupport
import GestureConfig
import GestureCore
import LinuxSystem
import Logging
import TestSupport
import Testing

@testable import ActionDispatch
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// A Unix datagram socket standing in for journald's: entries arrive as journald would
/// read them and are parsed by the native protocol's rules.
final class FakeJournal {
    let directory: TemporaryDirectory
    let listener: Listener
    var path: String { directory.file("socket") }

    init() throws {
        directory = try TemporaryDirectory()
        listener = try Listener(path: directory.file("socket"), datagram: true)
    }

    deinit { directory.remove() }

    /// The entries waiting, each as its fields in order.
    func entries() -> [[(String, String)]] {
        var out: [[(String, String)]] = []
        var buffer = [UInt8](repeating: 0, count: 2 * JournalEntry.maximumBytes)
        while true {
            let n = recv(listener.fd.rawValue, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { return out }
            out.append(FakeJournal.parse(buffer[0..<n]))
        }
    }

    /// `KEY=value\n`, or `KEY\n` + 64-bit little-endian length + value + `\n`.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [(String, String)] {
        var fields: [(String, String)] = []
        var at = bytes.startIndex
        while at < bytes.endIndex {
            guard let end = bytes[at...].firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\n") }) else { break }
            let name = String(decoding: bytes[at..<end], as: UTF8.self)
            if bytes[end] == UInt8(ascii: "=") {
                let stop = bytes[end...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
                fields.append((name, String(decoding: bytes[(end + 1)..<stop], as: UTF8.self)))
                at = stop + 1
            } else {
                let length = (0..<8).reduce(0) { $0 | Int(bytes[end + 1 + $1]) << (8 * $1) }
                let start = end + 9
                fields.append((name, String(decoding: bytes[start..<(start + length)], as: UTF8.self)))
                #expect(bytes[start + length] == UInt8(ascii: "\n"))
                at = start + length + 1
            }
        }
        return fields
    }
}

extension Array where Element == (String, String) {
    subscript(field name: String) -> String? { first { $0.0 == name }?.1 }
}

@Suite struct JournalTests {
    @Test func entriesCarryPriorityMessageIDAndFields() throws {
        let journal = try FakeJournal()
        let socket = try JournalSocket(path: journal.path)
        var logger = Logger(label: "test") { _ in JournalLogHandler(level: .info, socket: socket, identifier: "gestured") }
        logger[metadataKey: "session"] = "7"
        logger.error(
            "reload: /etc/gestured/gestures.toml refused; the running config stays",
            metadata: .journal(.reloadRefused, configFile: "/etc/gestured/gestures.toml"))
        logger.notice("first line\nsecond line")
        logger.debug("below the level")
        let entries = journal.entries()
        try #require(entries.count == 2)
        let refused = entries[0]
        #expect(refused[field: "MESSAGE"] == "reload: /etc/gestured/gestures.toml refused; the running config stays session=7")
        #expect(refused[field: "PRIORITY"] == "3")
        #expect(refused[field: "SYSLOG_IDENTIFIER"] == "gestured")
        #expect(refused[field: "MESSAGE_ID"] == "efddb5ae1aea492c92744a2a226f81cc")
        #expect(refused[field: "GESTURED_CONFIG_FILE"] == "/etc/gestured/gestures.toml")
        #expect(refused[field: "CODE_FILE"]?.hasSuffix("JournalTests.swift") == true)
        #expect(refused[field: "CODE_LINE"].flatMap { Int($0) } != nil)
        // A newline stays in the value (the binary length form), forging no second entry.
        #expect(entries[1][field: "MESSAGE"] == "first line\nsecond line session=7")
        #expect(entries[1][field: "PRIORITY"] == "5")
        #expect(entries[1][field: "MESSAGE_ID"] == nil)
    }

    @Test func anEntryTooLargeForADatagramGoesToStderrInstead() throws {
        let journal = try FakeJournal()
        let socket = try JournalSocket(path: journal.path)
        let fallback = journal.directory.file("stderr")
        let fd = open(fallback, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(fd) }
        let handler = JournalLogHandler(socket: socket, identifier: "gestured", fallbackFD: fd)
        let event = LogEvent(
            level: .warning, message: "\(String(repeating: "x", count: JournalEntry.maximumBytes))", metadata: nil,
            source: "test", file: #fileID, function: #function, line: #line)
        #expect(handler.entry(event, [:]).bytes.count > JournalEntry.maximumBytes)
        handler.log(event: event)
        let text = String(decoding: try WholeFile.read(fallback, maximumSize: 1 << 20), as: UTF8.self)
        #expect(text == "<4>" + String(repeating: "x", count: JournalEntry.maximumBytes) + "\n")
        #expect(journal.entries().isEmpty)
    }

    @Test func theTextOnStderrLeavesJournalFieldsOut() {
        let fields = Logger.Metadata.journal(.panelAdded, device: "/dev/input/event3")
        for journal in [true, false] {
            let handler = StderrLogHandler(journal: journal)
            let plain = handler.line(.info, "input: using /dev/input/event3", [:])
            let tagged = handler.line(.info, "input: using /dev/input/event3", fields)
            #expect(plain.split(separator: " ").dropFirst(journal ? 0 : 2) == tagged.split(separator: " ").dropFirst(journal ? 0 : 2))
        }
        #expect(StderrLogHandler(journal: true).line(.info, "m", fields.merging(["path": "/x"]) { $1 }) == "<6>m path=/x\n")
    }

    @Test func aRunOfRefusalsIsOneEntryAndItsCount() throws {
        let journal = try FakeJournal()
        let socket = try JournalSocket(path: journal.path)
        let logger = Logger(label: "test") { _ in JournalLogHandler(socket: socket, identifier: "gestured") }
        var settings = DaemonSettings()
        settings.maxChildren = 1
        let config = try makeConfiguration([("busy", .tap, [.recognized: [ActionSpec(kind: .command("sleep 0.2"))]])], settings: settings)
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)
        let tap = GestureEvent(time: 0, gesture: 0, view: 1, state: .recognized, device: DeviceID(1))
        for _ in 0..<6 { dispatcher.dispatch(tap) }
        #expect(try serve(loop) { dispatcher.runningChildren == 0 })
        dispatcher.dispatch(tap)
        #expect(try serve(loop) { dispatcher.runningChildren == 0 })
        let entries = journal.entries()
        let limits = entries.filter { $0[field: "MESSAGE_ID"] == MessageID.limitReached.rawValue }
        #expect(limits.count == 1)
        #expect(limits.first?[field: "GESTURED_LIMIT"] == "max_children")
        #expect(limits.first?[field: "GESTURED_GESTURE"] == "busy")
        #expect(entries.contains { $0[field: "MESSAGE"] == "5 commands were refused while 1 processes were alive (max_children)" })
    }

    @Test func journalStreamMustNameStderr() throws {
        var status = stat()
        #expect(fstat(STDERR_FILENO, &status) == 0)
        #expect(JournalSocket.stderrIsJournal(["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"]))
        #expect(!JournalSocket.stderrIsJournal(["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino + 1)"]))
        #expect(!JournalSocket.stderrIsJournal(["JOURNAL_STREAM": "garbage"]))
        #expect(!JournalSocket.stderrIsJournal([:]))
    }

    /// The catalog installed for `journalctl -x` and the table in docs/LOGGING.md list
    /// exactly the ids in the code.
    @Test func catalogAndDocsListEveryMessageID() throws {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let root = parts.joined(separator: "/")
        let catalog = String(decoding: try WholeFile.read(root + "/systemd/gestured.catalog", maximumSize: 1 << 20), as: UTF8.self)
        let docs = String(decoding: try WholeFile.read(root + "/docs/LOGGING.md", maximumSize: 1 << 20), as: UTF8.self)
        let inCatalog = catalog.split(separator: "\n").filter { $0.hasPrefix("-- ") }.map { String($0.dropFirst(3)) }
        #expect(inCatalog == MessageID.allCases.map(\.rawValue))
        for id in MessageID.allCases {
            #expect(docs.contains("| `\(id.rawValue)` |"), "docs/LOGGING.md lacks \(id)")
        }
    }
}
