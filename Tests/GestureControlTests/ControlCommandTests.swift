import GestureConfig
import LinuxSystem
import Testing

@testable import GestureControl

/// The control commands' routing table (`ControlCommand`) against docs/PROTOCOL.md, and the
/// typed requests it reads: every documented command is a row and every row is documented,
/// with the access the document gives it; each request's members, and the refusals that
/// say why.
@Suite struct ControlCommandTests {
    static func protocolText() throws -> String { try StatusDocTests.read("PROTOCOL.md") }

    /// The names in backquotes on the `###` headings of "Requests and replies": the
    /// document's commands, in its order.
    static func documentedCommands() throws -> [String] {
        let lines = try protocolText().split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "## Requests and replies"))
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
        return section.filter { $0.hasPrefix("### ") }.flatMap { heading in
            // `set`, `mode`, `reset`: the gesture layer at runtime -> set, mode, reset
            let title = heading.split(separator: ":", maxSplits: 1)[0]
            return title.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
    }

    /// "Who may do what": the commands each kind of client may use, by the row's first words.
    static func documentedAccess(_ client: String) throws -> Set<String> {
        let text = try protocolText()
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| \(client)") }, "no row for \(client)")
        let cell = String(row.split(separator: "|").last ?? "")
        if cell.contains("every command") { return Set(ControlCommand.allCases.map(\.rawValue)) }
        return Set(cell.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    }

    @Test func everyDocumentedCommandIsInTheTableAndEveryRowIsDocumented() throws {
        let documented = try Self.documentedCommands()
        #expect(Set(documented).count == documented.count, "a command is documented twice: \(documented)")
        #expect(Set(documented) == Set(ControlCommand.allCases.map(\.rawValue)))
    }

    @Test func theAccessOfEachRowIsTheDocumentsAccess() throws {
        #expect(try Self.documentedAccess("root") == Set(ControlAccess.admin.commands.map(\.rawValue)))
        #expect(try Self.documentedAccess("a member of `control_group`") == Set(ControlAccess.control.commands.map(\.rawValue)))
        #expect(try Self.documentedAccess("anyone else") == Set(ControlAccess.read.commands.map(\.rawValue)))
    }

    /// The document's `unknown-command` example lists the table as the server does.
    @Test func theUnknownCommandExampleListsTheTable() throws {
        #expect(try Self.protocolText().contains(#"known: "# + ControlCommand.known + #"""#))
    }

    // MARK: typed requests

    /// `json` read as the server reads it: its `cmd` looked up in the table.
    static func request(_ json: String) throws -> ControlRequest {
        let value = try JSONParser.parse(json)
        let command = try #require(value["cmd"]?.stringValue.flatMap(ControlCommand.init(rawValue:)))
        return try command.request(value)
    }

    static func command(_ json: String) throws -> RuntimeCommand {
        guard case .daemon(.runtime(let command)) = try request(json) else { throw ControlError(code: "test", message: "not runtime") }
        return command
    }

    @Test func theRequestsWithoutMembersAndTheirOptions() throws {
        #expect(try Self.request(#"{"cmd":"status"}"#) == .daemon(.status))
        #expect(try Self.request(#"{"cmd":"replay-start"}"#) == .daemon(.replayStart))
        #expect(try Self.request(#"{"cmd":"subscribe"}"#) == .subscribe(SubscribeRequest()))
        // Not a boolean: left out, as the server always took it.
        #expect(try Self.request(#"{"cmd":"subscribe","trace":true,"touches":"yes"}"#) == .subscribe(SubscribeRequest(trace: true)))
        #expect(
            try Self.request(#"{"cmd":"trigger","gesture":"map_pan","state":"began"}"#)
                == .daemon(.trigger(TriggerRequest(gesture: "map_pan", state: "began"))))
        #expect(throws: ControlError(code: "bad-request", message: #"trigger needs "gesture": NAME"#)) {
            try Self.request(#"{"cmd":"trigger","state":"began"}"#)
        }
    }

    /// Only `control` adds the runtime commands, which are the ones `RuntimeCommand` reads.
    @Test func theRuntimeCommandsAreWhatControlAccessAdds() throws {
        #expect(ControlCommand.runtime == [.set, .mode, .reset])
        #expect(ControlCommand.runtime == ControlAccess.control.commands.filter { !ControlAccess.read.commands.contains($0) })
    }

    @Test func theArgumentsOfSetModeAndReset() throws {
        #expect(
            try Self.command(#"{"cmd":"set","gesture":"map_pan","enabled":false}"#)
                == .set(SetRequest(target: .gesture("map_pan"), enabled: false)))
        #expect(
            try Self.command(#"{"cmd":"set","view":"map","frame":{"x":"50%","width":"50%"},"keep":true}"#)
                == .set(SetRequest(target: .view("map"), frame: FramePatch(x: .percent(50), width: .percent(50)), keep: true)))
        #expect(
            try Self.command(#"{"cmd":"mode","mode":"maintenance","for":"60s"}"#)
                == .mode(ModeRequest(mode: "maintenance", duration: 60_000_000)))
        #expect(try Self.command(#"{"cmd":"mode","mode":"video","for":1.5}"#) == .mode(ModeRequest(mode: "video", duration: 1_500_000)))
        #expect(try Self.command(#"{"cmd":"mode","mode":"none"}"#) == .mode(ModeRequest(mode: nil)))
        #expect(try Self.command(#"{"cmd":"mode","mode":null}"#) == .mode(ModeRequest(mode: nil)))
        #expect(try Self.command(#"{"cmd":"reset"}"#) == .reset(all: false))
        #expect(try Self.command(#"{"cmd":"reset","all":true}"#) == .reset(all: true))
    }

    /// What gesturectl sends (`members`) reads back as the same command, the table's row
    /// included.
    @Test(arguments: [
        RuntimeCommand.set(SetRequest(target: .gesture("map_pan"), enabled: false)),
        .set(SetRequest(target: .view("map"), enabled: true, frame: FramePatch(x: .percent(50), height: .pixels(600.5)), keep: true)),
        .set(SetRequest(target: .view("map"), frame: FramePatch(y: .pixels(-10), width: .percent(12.5)))),
        .mode(ModeRequest(mode: "maintenance", duration: 60_000_000, keep: true)),
        .mode(ModeRequest(mode: "video", duration: 1_500_001)),
        .mode(ModeRequest(mode: nil)),
        .reset(all: false), .reset(all: true),
    ])
    func whatIsSentReadsBackAsTheSameCommand(command: RuntimeCommand) throws {
        let read = try command.controlCommand.request(.object([("cmd", .string(command.controlCommand.rawValue))] + command.members))
        #expect(read == .daemon(.runtime(command)))
    }

    @Test(arguments: [
        (
            #"{"cmd":"set","gesture":"map_pan","enable":false}"#,
            #"set: unknown member "enable"; known: gesture, view, enabled, frame, keep"#
        ),
        (#"{"cmd":"set","gesture":"map_pan"}"#, #"set: nothing to set: give "enabled" or "frame""#),
        (#"{"cmd":"set","gesture":"map_pan","view":"map","enabled":true}"#, #"set: name exactly one of "gesture" or "view""#),
        (#"{"cmd":"set","gesture":"map_pan","frame":{"x":0}}"#, "set: only a view has a frame"),
        (
            #"{"cmd":"set","view":"map","frame":{"x":"4mm"}}"#,
            #"set: frame "x" is "4mm": expected px (a number or "40px") or a percentage of the parent ("25%")"#
        ),
        (#"{"cmd":"set","view":"map","frame":{"left":0}}"#, #"set: unknown frame member "left"; known: x, y, width, height"#),
        (#"{"cmd":"set","view":"map","enabled":"no"}"#, #"set: "enabled" must be true or false"#),
        (
            #"{"cmd":"mode","mode":"video","for":"forever"}"#,
            #"mode: "for" is "forever": expected a duration such as "300ms" or "0.5s", more than 0"#
        ),
        (#"{"cmd":"mode","mode":"none","for":"1s"}"#, #"mode: "for" needs a mode to end"#),
        (#"{"cmd":"mode"}"#, #"mode: "mode" must be a mode's name, or "none""#),
    ])
    func badArgumentsAreRefusedWithWhy(json: String, message: String) throws {
        #expect(throws: ControlError(code: "bad-request", message: message)) { try Self.command(json) }
    }

    /// A script line: the socket's members and its `t`.
    @Test func aScriptReadsTheSocketsRuntimeCommands() throws {
        let script = try RuntimeScript(
            text: #"{"t":1.5,"cmd":"reset"}"# + "\n\n" + #"{"t":2,"cmd":"mode","mode":"video"}"#, file: "s.jsonl")
        #expect(script.lines.map(\.command) == [.reset(all: false), .mode(ModeRequest(mode: "video"))])
        #expect(script.lines.map(\.offset) == [1_500_000, 2_000_000])
        #expect(script.lines.map(\.number) == [1, 3])
        do {
            _ = try RuntimeScript(text: #"{"t":1,"cmd":"status"}"#, file: "s.jsonl")
            Issue.record("status is not a runtime command")
        } catch {
            #expect(error.description == #"s.jsonl:1: expected "cmd": one of set, mode, reset"#)
        }
    }
}
