import LinuxSystem
import Testing

@testable import GestureControl

/// The docs name what the model has, and nothing else: docs/PROTOCOL.md's `status` table
/// and docs/MONITORING.md's metric list.
@Suite struct StatusDocTests {
    /// The repository, with a final `/`.
    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/GestureControlTests/StatusDocTests.swift
        return parts.joined(separator: "/") + "/"
    }()
    static let docs = root + "docs/"

    static func read(_ name: String) throws -> String {
        String(decoding: try WholeFile.read(docs + name, maximumSize: 1 << 20), as: UTF8.self)
    }

    /// PROTOCOL.md's `status` table: member name and its description, in order.
    static func statusTable() throws -> [(String, String)] {
        let text = try read("PROTOCOL.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "| member | value |"), "no status table in PROTOCOL.md")
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            return (String(cells[1].split(separator: " ").joined().dropFirst().dropLast()), String(cells[2]))
        }
    }

    /// The status the daemon sends (no `devices`-only detail).
    static var statusJSON: JSONValue {
        var status = fullStatus()
        for i in status.devices.indices { status.devices[i].detail = nil }
        return status.json
    }

    @Test func protocolTableListsEveryMemberInOrder() throws {
        guard case .object(let members) = Self.statusJSON else {
            Issue.record("status is not an object")
            return
        }
        #expect(try Self.statusTable().map(\.0) == members.map(\.0))
    }

    /// Each member's row names every key it holds (at any depth), and names no other key
    /// outside its parenthesized explanations.
    @Test func protocolTableNamesEveryKey() throws {
        let rows = Dictionary(try Self.statusTable(), uniquingKeysWith: { a, _ in a })
        guard case .object(let members) = Self.statusJSON else { return }
        for (member, value) in members {
            let row = try #require(rows[member], "no row for \(member)")
            let keys = Self.keys(in: value)
            for key in keys {
                #expect(row.contains("\"\(key)\"") || row.contains("`\(key)`"), "PROTOCOL.md's \(member) row does not name \(key)")
            }
            for named in Self.namedKeys(in: row) where !keys.contains(named) {
                Issue.record("PROTOCOL.md's \(member) row names \(named), which the status model does not have")
            }
        }
    }

    @Test func monitoringListsEveryFamily() throws {
        let text = try Self.read("MONITORING.md")
        let families = Set(MetricsText.samples(fullStatus()).map(\.family.exposedName))
        let rows = Set(
            text.split(separator: "\n").filter { $0.hasPrefix("| `gestured_") }.map { $0.split(separator: "`")[1] }.map(String.init))
        #expect(rows == families)
        // A histogram's series too (`_bucket`, ...).
        let series = Set(MetricsText.samples(fullStatus()).map { $0.family.exposedName + $0.suffix })
        for name in Self.words(in: text) where name.hasPrefix("gestured_") && name != "gestured_" {
            #expect(families.contains(name) || series.contains(name), "MONITORING.md names \(name), which the model does not export")
        }
    }

    /// Every member name in an object, and in the objects of its arrays, at any depth.
    static func keys(in value: JSONValue) -> Set<String> {
        switch value {
        case .object(let members): members.reduce(into: Set(members.map(\.0))) { $0.formUnion(keys(in: $1.1)) }
        case .array(let items): items.reduce(into: Set()) { $0.formUnion(keys(in: $1)) }
        default: []
        }
    }

    /// The snake_case names a row quotes (`"name"` or `` `name` ``), outside parentheses
    /// (where rows explain values: `(state \`waiting\`, ...)`).
    static func namedKeys(in row: String) -> Set<String> {
        var depth = 0
        var outside = ""
        for character in row {
            if character == "(" { depth += 1 }
            if depth == 0 { outside.append(character) } else { outside.append(" ") }
            if character == ")" { depth = max(0, depth - 1) }
        }
        var names: Set<String> = []
        for quote: Character in ["\"", "`"] {
            let pieces = outside.split(separator: quote, omittingEmptySubsequences: false)
            for (i, piece) in pieces.enumerated() where i % 2 == 1 && isName(piece) { names.insert(String(piece)) }
        }
        return names
    }

    static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" } && text.first != "_"
            && !text.first!.isNumber
    }

    static func words(in text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
    }
}
