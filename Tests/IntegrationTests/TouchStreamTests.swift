import GestureControl
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `subscribe` with `"touches": true` (`gesturectl monitor --touches`): the real gestured
/// replaying docs/examples/pan-swipe.evemu (a flick from (600, 160) to (330, 165), then a
/// drag from (200, 330) to (600, 330) on an 800x480 screen, view "gallery").
struct TouchStreamTests {
    static let examples: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/IntegrationTests/TouchStreamTests.swift
        return parts.joined(separator: "/") + "/docs/examples"
    }()

    @Test func contactsBesideTheEventsOnlyForThoseWhoAsk() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = Self.examples + "/pan-swipe.toml"
        let recording = Self.examples + "/pan-swipe.evemu"
        let expected = try replayJSON(config: config, recording: recording, dir: dir)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: recording)
        let watcher = try daemon.client()
        #expect(try watcher.request(.subscribe, [("touches", .bool(true))])["touches"] == .bool(true))
        let plain = try daemon.client()
        #expect(try plain.request(.subscribe)["touches"] == .bool(false))
        _ = try daemon.request(.replayStart)

        // Read until both the events and the two contacts' lifts are in.
        var lines: [JSONValue] = []
        while lines.count(where: { $0.kind == .event }) < expected.count || lines.count(where: { $0["phase"] == .string("ended") }) < 2,
            let line = try watcher.readLine()
        {
            lines.append(try JSONParser.parse(line[...]))
        }
        let touches = lines.filter { $0.kind == .contact }
        #expect(lines.filter { $0.kind == .event }.map(\.comparable) == expected.map(\.comparable))
        let ids = touches.compactMap { $0["touch"]?.intValue }.reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        try #require(ids.count == 2, "\(touches.map(\.text))")
        for (id, (down, up)) in zip(ids, [((600.0, 160.0), (330.0, 165.0)), ((200.0, 330.0), (600.0, 330.0))]) {
            let mine = touches.filter { $0["touch"]?.intValue == id }
            let phases = mine.compactMap { $0["phase"]?.stringValue }
            #expect(phases.first == "began" && phases.last == "ended" && phases.dropFirst().dropLast().allSatisfy { $0 == "moved" })
            let first = try #require(mine.first)
            let last = try #require(mine.last)
            #expect(abs((first["x"]?.doubleValue ?? 0) - down.0) < 0.3 && abs((first["y"]?.doubleValue ?? 0) - down.1) < 0.3)
            #expect(abs((last["x"]?.doubleValue ?? 0) - up.0) < 0.3 && abs((last["y"]?.doubleValue ?? 0) - up.1) < 0.3)
            // The panel is 4096 units at 27 per mm across 800 px: 0.19 mm per px.
            let mm = (first["x_mm"]?.doubleValue ?? 0) / (first["x"]?.doubleValue ?? 1)
            #expect(abs(mm - 4095.0 / 27 / 800) < 0.002)
            #expect(mine.allSatisfy { $0["view"] == .string("gallery") && $0["device"] == .number(0) })
        }
        // The swipe's recognition comes after the touch line of the frame that caused it.
        let swipe = try #require(lines.firstIndex { $0["gesture"] == .string("next_photo") })
        #expect(lines[..<swipe].contains { $0["touch"]?.intValue == ids[0] && $0["phase"] == .string("moved") })

        // The plain subscriber: the events, no contact.
        let events = try readEvents(plain, count: expected.count)
        #expect(events.map(\.comparable) == expected.map(\.comparable))
        #expect(events.allSatisfy { $0["touch"] == nil })
        try daemon.stop()
    }
}

extension JSONValue {
    /// Without the clock's fields (`t`, and `delayed_from` on the same clock): live and
    /// virtual replays differ only there.
    fileprivate var comparable: JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.0 != "t" && $0.0 != "delayed_from" })
    }
}
