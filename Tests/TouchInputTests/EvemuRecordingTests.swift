import Glibc
import LinuxSystem
import TestSupport
import Testing

@testable import TouchInput

@Suite struct EvemuRecordingTests {
    static let header = """
        # EVEMU 1.3
        N: Test Panel
        I: 0018 0eef 72fa 0100
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 03 00 00 00 00 00 80 61 42
        A: 2f 0 9 0 0 0
        A: 30 0 255 0 0 0
        A: 35 0 1599 0 0 11
        A: 36 0 2559 0 0 11
        A: 39 0 65535 0 0 0
        A: 3e 0 8 0 0 0

        """

    private func parse(_ body: String, header: String = Self.header) throws(EvemuError) -> EvemuRecording {
        try EvemuRecording.parse(header + body, path: "test.evemu")
    }

    /// The error for `line` (line 20: after the 18-line header and one event).
    private func error(_ line: String) -> EvemuError? {
        do {
            _ = try parse("E: 1.000000 0003 002f 0000\n" + line + "\n")
            return nil
        } catch {
            return error
        }
    }

    @Test func readsHeaderAndEventsWithPaddedNegativeValuesAndComments() throws {
        let recording = try parse(
            """
            E: 5.000100 0003 0039 0012\t# EV_ABS / ABS_MT_TRACKING_ID 12
            E: 5.000100 0003 0035 0810
            E: 5.000100 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
            E: 5.008818 0003 0039 -001
            E: 5.008818 0003 003e 0002
            E: 5.008818 0000 0000 0000

            """)
        let info = recording.info
        #expect(info.name == "Test Panel")
        #expect((info.bus, info.vendor, info.product, info.version) == (0x18, 0x0eef, 0x72fa, 0x100))
        #expect(info.isDirect)
        #expect(info.slotCount == 10)
        #expect(info.multitouchProtocol == .b)
        #expect(info.hasTouchMajor && !info.hasPressure)
        #expect(info.x == .init(minimum: 0, maximum: 1599, resolution: 11))
        #expect(info.capabilities.hasKey(InputCodes.btnTouch))
        #expect(info.isTouchscreen)
        #expect(recording.events.map(\.time) == [0, 0, 0, 8718, 8718, 8718])
        #expect(recording.events[3].value == -1)
        // An in-range ABS code without a name (the Pixel Tablet's 0x3e) is kept.
        #expect(recording.events[4].code == 0x3e)
        #expect(InputCodes.codeName(type: InputCodes.evAbs, code: 0x3e) == "ABS_0x3e")
    }

    @Test func readsEvemu11AxesWithoutResolution() throws {
        let old = Self.header.replacingOccurrences("A: 35 0 1599 0 0 11", with: "A: 35 0 1599 0 0")
        let recording = try parse("", header: old)
        #expect(recording.info.x == .init(minimum: 0, maximum: 1599, resolution: 0))
    }

    @Test func unknownEventTypeIsAnErrorWithFileLineAndText() {
        let failure = error("E: 1.000001 0006 0000 0001")
        #expect(failure?.line == 20)
        #expect(failure?.text == "E: 1.000001 0006 0000 0001")
        #expect(failure?.problem == "unknown event type 0x06")
        #expect(failure?.description.hasPrefix("test.evemu:20: unknown event type 0x06") == true)
    }

    @Test func codeAboveItsTypesMaximumIsAnError() {
        #expect(error("E: 1.000001 0003 0040 0001")?.problem == "code 0x40 is above EV_ABS's maximum 0x3f")
        #expect(error("E: 1.000001 0000 0010 0001")?.line == 20)
    }

    @Test func timeGoingBackwardsIsAnError() {
        #expect(error("E: 0.999999 0000 0000 0000")?.problem.hasPrefix("time goes backwards") == true)
    }

    @Test(arguments: [
        "E: 1.000001 0003 0035", "E: 1.000001", "E:", "E: 1.0000011 0003 0035 1", "E: 1.5 zz 0035 1",
        "E: 1.5 0003 0035 1 7", "E: 1.5 0003 0035 99999999999", "Q: what", "hello", "A: 35 0", "I: 0003",
    ])
    func malformedLinesAreErrors(line: String) {
        let failure = error(line)
        #expect(failure?.line == 20)
        #expect(failure?.text == line)
    }

    @Test func eventsWithoutAHeaderNeedADescription() throws {
        let events = "E: 75.280046 0003 0039 0005\nE: 75.280138 0000 0000 0000\n"
        #expect(throws: EvemuError.self) { try EvemuRecording.parse(events, path: "n4.events") }
        do {
            _ = try EvemuRecording.parse(events, path: "n4.events")
        } catch {
            #expect(error.description.contains("--desc FILE"))
        }
        let recording = try EvemuRecording.parse(events, path: "n4.events", desc: (Self.header, "n4.desc"))
        #expect(recording.info.name == "Test Panel")
        #expect(recording.events.map(\.time) == [0, 92])
    }

    /// The error names the B: line that enabled the axis (it used to say line 0).
    @Test func anAxisWithoutAnALineIsAnErrorAtItsBLine() {
        let missing = Self.header.replacingOccurrences("A: 36 0 2559 0 0 11\n", with: "")
        #expect(
            throws: EvemuError(
                path: "test.evemu", line: 12,
                problem: "ABS_MT_POSITION_Y is enabled by this B: line but has no A: line",
                text: "B: 03 00 00 00 00 00 80 61 42")
        ) { try parse("", header: missing) }
    }

    /// A slot maximum no panel has is refused at its A: line: the normalizer allocates per
    /// slot (2147483647 aborted, 10000000 took 764 MB and over a second).
    @Test(arguments: [Int32.max, 100_000_000, 10_000_000, 64])
    func aSlotMaximumAboveTheBoundIsRefusedWithItsLine(maximum: Int32) {
        let huge = Self.header.replacingOccurrences("A: 2f 0 9 0 0 0", with: "A: 2f 0 \(maximum) 0 0 0")
        do {
            _ = try parse("", header: huge)
            Issue.record("accepted ABS_MT_SLOT maximum \(maximum)")
        } catch {
            #expect(error.line == 13 && error.text == "A: 2f 0 \(maximum) 0 0 0", "\(error)")
            #expect(error.problem.contains("at most \(TouchDeviceInfo.maximumSlots)"), "\(error)")
        }
        let largest = Self.header.replacingOccurrences("A: 2f 0 9 0 0 0", with: "A: 2f 0 \(TouchDeviceInfo.maximumSlots - 1) 0 0 0")
        #expect(throws: Never.self) { try parse("", header: largest) }
    }

    @Test func aMissingFileIsASystemErrorNamingThePath() {
        do {
            _ = try EvemuRecording.read(path: "/nonexistent/dir/x.evemu")
            Issue.record("no error")
        } catch let error as SystemError {
            #expect(error.code == ENOENT)
            #expect(error.description == "/nonexistent/dir/x.evemu: open failed: No such file or directory")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func writeThenReadGivesTheSameRecording() throws {
        let original = try parse(
            """
            E: 0.000001 0003 0039 0012
            E: 0.000001 0003 0035 -010
            E: 0.000001 0000 0000 0000
            E: 0.501000 0003 0039 -001
            E: 0.501000 0000 0000 0000

            """)
        let path = temporaryPath("roundtrip.evemu")
        defer { unlink(path) }
        try original.write(to: path)
        let reread = try EvemuRecording.read(path: path)
        #expect(reread == original)
        #expect(original.serialized().contains("E: 0.000000 0003 0035 -010\t# EV_ABS / ABS_MT_POSITION_X\n"))
    }

    /// Random devices and events survive a write and a read unchanged.
    @Test(arguments: Array(UInt64(1)...40))
    func randomRecordingsRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var caps = DeviceCapabilities()
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            caps.properties.insert(UInt16.random(in: 0...InputCodes.propMax, using: &random))
        }
        var events: [RawInputEvent] = []
        var time: Int64 = 0
        for index in 0..<Int.random(in: 1...60, using: &random) {
            let type = [InputCodes.evSyn, InputCodes.evKey, InputCodes.evAbs, 4, 0x11].randomElement(using: &random)!
            let code = UInt16.random(in: 0...InputCodes.maximumCode(ofType: type)!, using: &random)
            if type == InputCodes.evAbs {
                // A slot axis within the slot bound (recordings beyond it are refused).
                let slot = code == InputCodes.absMTSlot
                let low = slot ? 0 : Int32.random(in: -5000...5000, using: &random)
                let span = Int32.random(in: 0...(slot ? Int32(TouchDeviceInfo.maximumSlots - 1) : 70000), using: &random)
                caps.enable(
                    type: type, code: code,
                    info: AbsInfo(
                        minimum: low, maximum: low + span,
                        fuzz: Int32.random(in: 0...8, using: &random), flat: 0,
                        resolution: Int32.random(in: 0...100, using: &random)))
            } else if type != InputCodes.evSyn {
                caps.enable(type: type, code: code)
            }
            if index > 0 { time += Int64.random(in: 0...2_000_000, using: &random) }
            events.append(RawInputEvent(type: type, code: code, value: Int32.random(in: -100_000...100_000, using: &random), time: time))
        }
        let original = EvemuRecording(
            info: TouchDeviceInfo(
                name: "Random \(seed) #x", bus: .random(in: 0...0xffff, using: &random),
                vendor: 0x1ef1, product: 1, version: 0, capabilities: caps),
            events: events)
        let reread = try EvemuRecording.parse(original.serialized(), path: "random")
        #expect(reread == original)
    }

    @Test(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
    func realRecordingsSurviveAWriteAndARead() throws {
        for name in ["atmel-maxtouch-1-finger-fast-taps.evemu", "google-pixel-tablet-nvt-1-finger-swipe.evemu"] {
            let original = try EvemuRecording.read(path: SharedRecordings.path(name))
            #expect(try EvemuRecording.parse(original.serialized(), path: name) == original)
        }
        let pixel = try EvemuRecording.read(path: SharedRecordings.path("google-pixel-tablet-nvt-1-finger-swipe.evemu"))
        #expect(pixel.info.bus == 0x1c)
        #expect(pixel.info.hasToolType && pixel.info.hasPressure)
        // It advertises ABS code 0x3e, which has no name (its events do not use it).
        #expect(pixel.info.capabilities.hasAbs(0x3e))
        #expect(pixel.info.capabilities.absInfo[0x3e] == AbsInfo(minimum: 0, maximum: 8))
    }
}

extension String {
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }

    func range(of target: String) -> Range<String.Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }
}

/// A path in the temporary directory, unique to this process.
func temporaryPath(_ name: String) -> String {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    return "\(directory)/gestured-test-\(getpid())-\(name)"
}
