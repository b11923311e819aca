import DaemonTestSupport
import GestureConfig
import GestureCore
import LinuxSystem
import Logging
import TestSupport
import Testing

@testable import ActionDispatch
@testable import GestureDaemon
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
        let fields = Logger.Metadata.journal(
            .panelAdded, panel: JournalPanel(name: "ILITEK", path: "/dev/input/event3", properties: ["ID_PATH": "usb-1"]))
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

    /// docs/LOGGING.md's table of ids: per id, the fields every entry carries and those in
    /// parentheses that some carry.
    static func documentedFields() throws -> [String: (always: Set<String>, sometimes: Set<String>)] {
        let docs = String(decoding: try WholeFile.read(root + "/docs/LOGGING.md", maximumSize: 1 << 20), as: UTF8.self)
        var table: [String: (always: Set<String>, sometimes: Set<String>)] = [:]
        for line in docs.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                String(String($0.drop { $0 == " " }.reversed()).drop { $0 == " " }.reversed())
            }
            guard cells.count == 7, cells[2].count == 34, let id = MessageID(rawValue: String(cells[2].dropFirst().dropLast())) else {
                continue
            }
            var always: Set<String> = []
            var sometimes: Set<String> = []
            var depth = 0
            var token = ""
            var inQuote = false
            for character in cells[4] {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if character == "`" {
                    if inQuote, token.hasPrefix("GESTURED_") {
                        if depth > 0 { sometimes.insert(token) } else { always.insert(token) }
                    }
                    inQuote.toggle()
                    token = ""
                } else if inQuote {
                    token.append(character)
                }
            }
            table[id.rawValue] = (always, sometimes)
        }
        return table
    }

    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// Every id's entries, sent through gestured's code to a socket standing in for
    /// journald's, carry the fields LOGGING.md lists for it, and no other of gestured's.
    /// Commands (failed, timed out, refused at max_children, their stderr), recognitions and
    /// reloads go the daemon's own way; the panel and control events, whose call sites need
    /// a real touchscreen or a second user, through the metadata their call sites build
    /// (the systemd tier has them for real).
    @Test func everyIDCarriesItsDocumentedFields() throws {
        let documented = try Self.documentedFields()
        for id in MessageID.allCases {
            let doc = try #require(documented[id.rawValue], "LOGGING.md has no row for \(id)")
            #expect(doc.always == Set(id.fields.always), "LOGGING.md's fields of \(id)")
            #expect(doc.sometimes == Set(id.fields.sometimes), "LOGGING.md's fields of \(id) that some entries carry")
        }
        let journal = try FakeJournal()
        let socket = try JournalSocket(path: journal.path)
        let logger = Logger(label: "test") { _ in JournalLogHandler(level: .debug, socket: socket, identifier: "gestured") }

        // Commands: one fails with a line on stderr, one outlives its timeout, one is refused
        // at max_children; every recognition logged.
        var settings = DaemonSettings()
        settings.maxChildren = 2
        settings.logRecognitions = true
        let config = try makeConfiguration(
            [
                ("fail", .tap, [.recognized: [ActionSpec(kind: .command("echo oops >&2; exit 3"))]]),
                ("slow", .tap, [.recognized: [ActionSpec(kind: .command("sleep 5"), timeout: 100_000)]]),
            ], settings: settings)
        let loop = try EventLoop()
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: logger)
        let panel = JournalPanel(name: "ILITEK", path: "/dev/input/event3", properties: ["ID_PATH": "pci-0000:00:14.0-usb-0:4:1.0"])
        dispatcher.panel = { _ in panel }
        for gesture in [0, 1, 1] {
            dispatcher.dispatch(GestureEvent(time: loop.now(), gesture: gesture, view: 1, state: .recognized, device: DeviceID(1)))
        }
        // Drained as they come: a datagram socket queues only a few (net.unix.max_dgram_qlen).
        var entries: [[(String, String)]] = []
        #expect(
            try serve(loop) {
                entries += journal.entries()
                return dispatcher.runningChildren == 0
            })

        // Reloads, taken and refused, by the daemon.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.file("gestures.toml")
        let example = try WholeFile.read(Self.root + "/docs/examples/tap-double-tap.toml", maximumSize: 1 << 20)
        try WholeFile.write(String(decoding: example, as: UTF8.self), to: file)
        let daemon = try Daemon(
            options: DaemonOptions(configPath: file, socketPath: dir.file("ctl.sock")),
            configuration: try ConfigLoader.load(tree: ConfigTree(mainFile: file, dropInDirectories: nil), enforcingSafety: false),
            environment: [:], logger: logger, adoptsOrphans: false)
        defer { daemon.server.close() }
        _ = daemon.reloadConfiguration()
        entries += journal.entries()
        try WholeFile.write("[gesture.open]\ntype = \"fly\"\n", to: file)
        _ = daemon.reloadConfiguration()
        entries += journal.entries()

        // The rest as their call sites build them.
        let withPanel: [MessageID] = [.panelAdded, .panelRemoved, .panelGrabbed, .panelUnusable]
        for id in withPanel { logger.info("\(id)", metadata: .journal(id, panel: panel)) }
        entries += journal.entries()
        for state in HealthState.allCases {
            logger.warning("\(state)", metadata: .journal(health: state, reason: .noFrame(silence: 60_000_000), panel: panel))
        }
        entries += journal.entries()
        let client = PeerCredentials(pid: 812, uid: 1000, gid: 1000)
        logger.notice("refused", metadata: .journal(.commandRefused, command: "reload", client: client))
        logger.notice("undone", metadata: .journal(.changesUndone, client: client))
        logger.warning("queue full", metadata: .journal(.limitReached, limit: .socketQueue))
        entries += journal.entries()

        var seen: Set<MessageID> = []
        for entry in entries {
            guard let raw = entry[field: "MESSAGE_ID"], let id = MessageID(rawValue: raw) else { continue }
            seen.insert(id)
            let fields = Set(entry.map(\.0).filter { $0.hasPrefix("GESTURED_") })
            let message = entry[field: "MESSAGE"] ?? ""
            #expect(Set(id.fields.always).isSubset(of: fields), "\(id) lacks a field: \(message) \(fields)")
            #expect(fields.isSubset(of: Set(id.fields.always + id.fields.sometimes)), "\(id) carries an undocumented field: \(fields)")
            for (name, value) in entry where name.hasPrefix("GESTURED_") {
                #expect(!value.isEmpty, "\(id): \(name) is empty")
                // Tokens, as the metrics' label values: no spaces (the error and the time aside).
                if ![JournalField.error, JournalField.gesture].contains(name) { #expect(!value.contains(" "), "\(id): \(name)=\(value)") }
            }
            switch id {
            case .reloadRefused: #expect(entry[field: "GESTURED_ERROR"]?.contains("gesture.open.type") == true, "\(entry)")
            case .commandOutput: #expect(message == "[fail] oops" && entry[field: "GESTURED_GESTURE"] == "fail")
            case .gestureRecognized:
                #expect(entry[field: "GESTURED_ID_PATH"] == "pci-0000:00:14.0-usb-0:4:1.0")
                #expect(entry[field: "GESTURED_STATE"] == "recognized")
                #expect(entry[field: "GESTURED_TIME"].map { $0.count == 24 && $0.hasSuffix("Z") && message.contains($0) } == true)
            case .limitReached where entry[field: "GESTURED_GESTURE"] != nil:
                #expect(entry[field: "GESTURED_LIMIT"] == "max_children")
            case .limitReached: #expect(entry[field: "GESTURED_LIMIT"] == "socket_queue")
            case .panelNoisy: #expect(entry[field: "GESTURED_HEALTH"] == "noisy" && entry[field: "GESTURED_HEALTH_REASON"] == "no_frame")
            default: break
            }
        }
        #expect(seen == Set(MessageID.allCases), "no entry for \(Set(MessageID.allCases).subtracting(seen))")
    }

    /// The catalog installed for `journalctl -x` and the table in docs/LOGGING.md list
    /// exactly the ids in the code.
    @Test func catalogAndDocsListEveryMessageID() throws {
        let root = Self.root
        let catalog = String(decoding: try WholeFile.read(root + "/systemd/gestured.catalog", maximumSize: 1 << 20), as: UTF8.self)
        let docs = String(decoding: try WholeFile.read(root + "/docs/LOGGING.md", maximumSize: 1 << 20), as: UTF8.self)
        let inCatalog = catalog.split(separator: "\n").filter { $0.hasPrefix("-- ") }.map { String($0.dropFirst(3)) }
        #expect(inCatalog == MessageID.allCases.map(\.rawValue))
        for id in MessageID.allCases {
            #expect(docs.contains("| `\(id.rawValue)` |"), "docs/LOGGING.md lacks \(id)")
        }
    }
}
