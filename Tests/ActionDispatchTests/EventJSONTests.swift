import GestureConfig
import GestureControl
import GestureCore
import JSONOutput
import Testing
import TouchInput

@testable import ActionDispatch

@Suite struct EventJSONTests {
    let names = GestureNames(
        gestures: ["scroll", "zoom", "back", "tap \"x\""], types: [.pan, .pinch, .swipe, .tap],
        views: ["root", "panel"])

    private func line(_ event: GestureEvent, origin: Int64 = 1_000_000) -> String {
        var writer = JSONWriter()
        EventJSON.line(event, names: names, origin: origin, into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func panLine() {
        let event = GestureEvent(
            time: 3_123_456, gesture: 0, view: 1, state: .changed, device: DeviceID(1), x: 10.04, y: -2.25,
            touches: 2, translationX: 5, translationY: -0.05, velocityX: 1234.56, velocityY: 0)
        #expect(
            line(event)
                == #"{"t":2.123,"gesture":"scroll","type":"pan","state":"changed","view":"panel","x":10.0,"y":-2.3,"touches":2,"translation_x":5.0,"translation_y":-0.1,"velocity_x":1234.6,"velocity_y":0.0}"#
                + "\n")
    }

    @Test func pinchSwipeAndDelayedTap() {
        let pinch = GestureEvent(time: 1_000_000, gesture: 1, view: 0, state: .began, device: DeviceID(1), scale: 1.23456, velocity: -0.5)
        #expect(line(pinch).hasSuffix(#""touches":0,"scale":1.235,"velocity":-0.500}"# + "\n"))
        let swipe = GestureEvent(time: 1_000_000, gesture: 2, view: 0, state: .recognized, device: DeviceID(1), direction: .up)
        #expect(line(swipe).hasSuffix(#""direction":"up"}"# + "\n"))
        let tap = GestureEvent(time: 1_700_000, gesture: 3, view: 0, state: .recognized, device: DeviceID(1), delayedFrom: 1_350_000)
        let text = line(tap)
        #expect(text.contains(#""gesture":"tap \"x\"""#))
        #expect(text.hasSuffix(#""touches":0,"delayed_from":0.350}"# + "\n"))
        // Round trip through the reader.
        let parsed = try? JSONParser.parse(text.dropLast().utf8)
        #expect(parsed?["gesture"] == .string("tap \"x\""))
        #expect(parsed?["t"] == .number(0.7))
    }

    @Test func nonFiniteBecomesNull() {
        let event = GestureEvent(time: 0, gesture: 1, view: 0, state: .changed, device: DeviceID(1), scale: .infinity, velocity: .nan)
        #expect(line(event, origin: 0).hasSuffix(#""scale":null,"velocity":null}"# + "\n"))
    }

    @Test func traceFormats() {
        var writer = JSONWriter()
        EventJSON.traceLine(
            time: 2_000_000, origin: 1_000_000, view: "panel", gesture: "tap", from: "possible", to: "failed",
            reason: "moved 4.1 mm", into: &writer)
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"t":1.000,"view":"panel","gesture":"tap","from":"possible","to":"failed","reason":"moved 4.1 mm"}"# + "\n")
        #expect(
            TraceLine.format(view: "panel", gesture: "tap", from: "possible", to: "failed", reason: "moved 4.1 mm")
                == "[panel/tap] possible -> failed (moved 4.1 mm)")
    }

    @Test func templateRendersBareValues() throws {
        let template = try CompiledTemplate(
            MessageTemplate(segments: [
                .text("{\"g\":\""), .field("gesture"), .text("\",\"s\":"), .field("scale"), .field("delayed_from"), .text("}"),
            ]))
        var writer = JSONWriter()
        template.render(
            GestureEvent(time: 0, gesture: 1, view: 0, state: .ended, device: DeviceID(1), scale: 2),
            names: names, origin: 0, into: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"g":"zoom","s":2.000}"# + "\n")
        #expect(throws: TemplateError.self) { try CompiledTemplate(MessageTemplate(segments: [.field("speed")])) }
    }

    @Test func parserAcceptsJSONAndRejectsTheRest() throws {
        #expect(
            try JSONParser.parse(#" {"cmd":"subscribe","trace":true,"n":[1,-2.5e3,null],"u":"\u00e9\ud83d\ude00"} "#)
                == .object([
                    ("cmd", .string("subscribe")), ("trace", .bool(true)),
                    ("n", .array([.number(1), .number(-2500), .null])), ("u", .string("é😀")),
                ]))
        for bad in [
            "", "{", "{\"a\"}", "[1,]", "01x", "\"abc", "tru", "{} {}", "\"\\ud800\"",
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        ] {
            #expect(throws: JSONParseError.self, "\(bad)") { try JSONParser.parse(bad) }
        }
    }
}

@Suite struct MonitorTextTests {
    @Test func monitorLines() throws {
        #expect(
            try render(#"{"t":1.2,"gesture":"back","type":"swipe","state":"recognized","view":"root","x":10.5,"direction":"left"}"#)
                == "    1.200  root/back swipe recognized  x=10.5 direction=left")
        #expect(
            try render(#"{"t":0.04,"view":"root","gesture":"tap","from":"possible","to":"failed","reason":"moved"}"#)
                == "    0.040  [root/tap] possible -> failed (moved)")
        // A mode line has a `from` as a trace line does: it is a mode line still.
        #expect(
            try render(#"{"t":2.934,"mode":null,"from":"quiet","cause":"expired"}"#)
                == "    2.934  mode=null from=quiet cause=expired")
        #expect(try render(#"{"t":3,"stopping":true,"reason":"SIGTERM"}"#) == "    3.000  gestured is stopping (SIGTERM)")
        #expect(try render(#"{"t":300.08,"idle":"idle","cause":"timeout"}"#) == "  300.080  idle (timeout)")
        #expect(try render(#"{"t":412.31,"idle":"active","cause":"touch","device":0}"#) == "  412.310  active (touch) device=0")
    }

    /// The idle lines as the daemon and replay write them (docs/PROTOCOL.md).
    @Test func idleLines() {
        var writer = JSONWriter()
        EventJSON.idleLine(IdleChange(time: 301_080_000, idle: true, cause: .timeout), origin: 1_000_000, into: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"t":300.080,"idle":"idle","cause":"timeout"}"# + "\n")
        EventJSON.idleLine(IdleChange(time: 413_310_000, idle: false, cause: .touch(DeviceID(2))), origin: 1_000_000, into: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"t":412.310,"idle":"active","cause":"touch","device":2}"# + "\n")
        EventJSON.idleLine(IdleChange(time: 1_000_000, idle: false, cause: .reload), origin: 1_000_000, into: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"t":0.000,"idle":"active","cause":"reload"}"# + "\n")
    }

    /// Each line of the stream has one kind, whatever other members it shares.
    @Test func everyLineHasItsKind() throws {
        let lines: [(String, EventLine.Kind)] = [
            (#"{"t":1,"stopping":true,"reason":"SIGTERM"}"#, .stopping),
            (#"{"t":1,"mode":"quiet","from":"video","until":2.5,"cause":"switched","by":"script"}"#, .mode),
            (#"{"t":1,"changed":{"gesture":"drag","enabled":false},"by":"script"}"#, .changed),
            (#"{"t":1,"dropped":{"view":"map"},"cause":"reload"}"#, .dropped),
            (#"{"t":1,"view":"root","gesture":"tap","from":"possible","to":"failed","reason":"moved"}"#, .trace),
            (#"{"t":1,"filtered":7,"device":0,"rule":"ghost","shown":false,"x":1,"y":2}"#, .filtered),
            (#"{"t":1,"device":0,"health":"noisy","reason":"31 contacts"}"#, .health),
            (#"{"t":1,"idle":"active","cause":"touch","device":0}"#, .idle),
            (#"{"t":1,"touch":5,"delivery":"began","delay":0,"view":"map","x":1,"y":2,"device":0}"#, .applicationTouch),
            (#"{"t":1,"touch":41,"device":1,"phase":"began","x":1,"y":2,"x_mm":1,"y_mm":2,"view":null}"#, .contact),
            (#"{"t":1,"gesture":"tap","type":"tap","state":"recognized","view":"root","x":1,"y":2,"touches":1}"#, .event),
        ]
        for (text, kind) in lines { #expect(EventLine(line: Array(text.utf8))?.kind == kind, "\(text)") }
        #expect(Set(lines.map(\.1)) == Set(EventLine.Kind.allCases))
        #expect(EventLine(line: Array(#"{"t":1}"#.utf8)) == nil && EventLine(line: Array("[1]".utf8)) == nil)
    }

    private func render(_ text: String) throws -> String {
        MonitorText.render(try #require(EventLine(line: Array(text.utf8))))
    }

    /// `monitor --touches`: the contact line as the daemon writes it, and as gesturectl prints it.
    @Test func touchLines() throws {
        var writer = JSONWriter()
        let touch = TouchReport(
            time: 2_290_000, device: DeviceID(1), id: 41, phase: .began, x: 410.54, y: 220,
            mmX: 108.61, mmY: 58.2, hitView: 2)
        EventJSON.touchLine(touch, origin: 1_000_000, view: "panel", into: &writer)
        let line = String(decoding: writer.bytes, as: UTF8.self)
        #expect(
            line == #"{"t":1.290,"touch":41,"device":1,"phase":"began","x":410.5,"y":220.0,"x_mm":108.6,"y_mm":58.2,"view":"panel"}"# + "\n"
        )
        #expect(
            MonitorText.render(try #require(EventLine(line: Array(line.utf8).dropLast())))
                == "    1.290  touch 41 began  x=410.5 y=220 (108.6 58.2 mm) view=panel device=1")
        EventJSON.touchLine(touch, origin: 1_000_000, view: nil, into: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self).hasSuffix(#""view":null}"# + "\n"))
    }

    /// `monitor --touches` marks a contact the health stage filtered with its rule, and
    /// prints a panel's health change.
    @Test func filteredAndHealthLines() throws {
        var writer = JSONWriter()
        for (shown, said) in [(false, "never shown"), (true, "shown, then cancelled")] {
            EventJSON.filteredLine(
                FilteredContact(time: 2_290_000, id: 7, rule: .ghost, wasShown: shown, x: 410.54, y: 220), device: DeviceID(1),
                origin: 1_000_000, into: &writer)
            #expect(
                MonitorText.render(try #require(EventLine(line: writer.bytes.dropLast())))
                    == "    1.290  touch 7 filtered: ghost, \(said)  x=410.5 y=220 device=1")
        }
        EventJSON.healthLine(
            device: DeviceID(1), state: .noisy, reason: .filtered(count: 31, perMinute: 30), time: 61_000_000, origin: 1_000_000,
            into: &writer)
        #expect(
            MonitorText.render(try #require(EventLine(line: writer.bytes.dropLast())))
                == "   60.000  device 1 health noisy: 31 contacts filtered within a minute (more than 30)")
    }
}
