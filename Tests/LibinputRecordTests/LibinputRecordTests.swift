import Glibc
import LibinputRecord
import LinuxSystem
import TestSupport
import Testing
import TouchInput

private let packageRoot: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/LibinputRecordTests/LibinputRecordTests.swift
    return parts.joined(separator: "/")
}()

/// `Fixtures/pan-swipe.yml` is docs/examples/pan-swipe.evemu written as `libinput record`
/// writes it (format 1: header, device description, one `- evdev:` list per frame).
private let fixture = packageRoot + "/Tests/LibinputRecordTests/Fixtures/pan-swipe.yml"
private let evemu = packageRoot + "/docs/examples/pan-swipe.evemu"

@Suite struct LibinputRecordTests {
    @Test func sameDeviceAndEventsAsTheEvemuFile() throws {
        let yaml = try RecordingFile.read(path: fixture)
        let reference = try EvemuRecording.read(path: evemu)
        #expect(yaml.info == reference.info)
        #expect(yaml.events.count == reference.events.count && yaml.events.count > 500)
        #expect(yaml.events == reference.events)
    }

    /// A header with a keyboard first: the touchscreen is the device taken.
    @Test func picksTheTouchscreenAmongDevices() throws {
        let keyboard = """
            - node: /dev/input/event3
              evdev:
                name: "AT Translated Set 2 keyboard"
                id: [17, 1, 1, 43841]
                codes:
                  0: [0, 1, 4, 17] # EV_SYN
                  1: [1, 2, 3, 30] # EV_KEY
                properties: []
              events:
              - evdev:
                - [  0,      0,   1,  30,       1]
                - [  0,      0,   0,   0,       0]
            """
        let text = try fixtureText().replacingOccurrences(of: "devices:\n", with: "devices:\n" + keyboard + "\n")
        let recording = try LibinputRecord.parse(text, path: "two.yml")
        #expect(recording.info.name == "gestured docs panel")
        #expect(recording.events.first?.code == 47)
    }

    @Test(arguments: [
        // (what to replace, with what, the line the error names, words the message has)
        (
            "    - [  0,  10000,   3,  47,       0] # EV_ABS / ABS_MT_SLOT               0",
            "    - [  0,  10000,   3,  47] # EV_ABS / ABS_MT_SLOT", 44, "[sec, usec, type, code, value]"
        ),
        ("      57: [0, 65535, 0, 0, 0]\n", "", 21, "ABS_MT_TRACKING_ID is listed under 'codes' but has no 'absinfo'"),
        ("version: 1", "version: 2", 1, "version 2 is not supported"),
        ("    id: [3, 4660, 22136, 1]", "    id: [3, 4660, 22136, 1", 18, "not valid YAML"),
        (
            "    - [  0,  10000,   3,  47,       0] # EV_ABS / ABS_MT_SLOT               0",
            "    - [  0,  10000,   3,  47,    zero]", 44, "'zero' is not an integer"
        ),
        ("      3: [0, 1, 47, 53, 54, 57] # EV_ABS", "      3: [0, 1, 47, 53, 54, 70000] # EV_ABS", 21, "70000"),
    ])
    func errorsNameTheLine(_ replace: String, _ with: String, _ line: Int, _ words: String) throws {
        let text = try fixtureText()
        #expect(text.contains(replace))
        let broken = text.replacingOccurrences(of: replace, with: with)
        #expect {
            try LibinputRecord.parse(broken, path: "bad.yml")
        } throws: { error in
            guard let error = error as? EvemuError else { return false }
            return error.line == line && error.description.hasPrefix("bad.yml:\(line): ") && error.description.contains(words)
        }
    }

    @Test func notATouchscreen() throws {
        let text = try fixtureText().replacingOccurrences(of: "      3: [0, 1, 47, 53, 54, 57] # EV_ABS\n", with: "")
            .replacingOccurrences(of: "      0: [0, 1, 3] # EV_SYN", with: "      0: [0, 1] # EV_SYN")
        #expect {
            try LibinputRecord.parse(text, path: "keys.yml")
        } throws: { error in
            // At the devices: key, line 10.
            (error as? EvemuError)?.line == 10 && "\(error)".contains("not a touchscreen")
        }
    }

    @Test func sniffedWithoutTheExtension() throws {
        #expect(LibinputRecord.looksLike(Array(try fixtureText().utf8)))
        #expect(!LibinputRecord.looksLike(Array("# EVEMU 1.3\nN: panel\n".utf8)))
        let copy = "/tmp/gestured-libinput-\(getpid()).record"
        defer { unlink(copy) }
        try write(try fixtureText(), to: copy)
        #expect(try RecordingFile.read(path: copy).events == EvemuRecording.read(path: evemu).events)
    }

    @Test func descIsRefusedForALibinputRecord() {
        #expect {
            try RecordingFile.read(path: fixture, descPath: evemu)
        } throws: { error in
            "\(error)".contains("libinput record, which describes its device itself")
        }
    }

    /// The gesturectl verbs print the same for the YAML as for the evemu file.
    @Test(arguments: [["touches"], ["replay", "--json", "--config", packageRoot + "/docs/examples/pan-swipe.toml"]])
    func gesturectlReadsIt(_ verb: [String]) throws {
        let tool = ChildProcess.buildDirectory + "/gesturectl"
        let fromYAML = try ChildProcess.run(tool, arguments: verb + [fixture])
        let fromEvemu = try ChildProcess.run(tool, arguments: verb + [evemu])
        #expect(fromYAML.status == 0 && fromEvemu.status == 0)
        #expect(fromYAML.output.split(separator: "\n").count > 3)
        #expect(fromYAML.output == fromEvemu.output)
    }

    private func fixtureText() throws -> String {
        String(decoding: try WholeFile.read(fixture, maximumSize: 1 << 20), as: UTF8.self)
    }

    private func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let bytes = Array(text.utf8)
        #expect(Glibc.write(fd, bytes, bytes.count) == bytes.count)
    }
}
