import Testing

@testable import GestureConfig

#if canImport(Glibc)
import Glibc
#endif

/// docs/CONFIG.md, which is also the man page gestures.toml(5), names every key the config
/// reader asks for.
@Suite struct ConfigReferenceTests {
    private static func read(_ path: String) throws -> String {
        let file = try #require(fopen(path, "r"), "cannot open \(path)")
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { bytes += chunk[..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static var root: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/GestureConfigTests/ConfigReferenceTests.swift
        return parts.joined(separator: "/")
    }

    /// The words inside `code spans` of a Markdown text: `{ name = "x", value = "y" }` gives
    /// name, x, value, y.
    private static func codeWords(_ markdown: String) -> Set<String> {
        var words = Set<String>()
        for (index, span) in markdown.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
            for word in span.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
                words.insert(String(word))
            }
        }
        return words
    }

    @Test func everyKeyTheReaderAsksForIsInTheReference() throws {
        let shipped = try Self.read(Fixture.shippedConfigPath)
        let configuration = try ConfigLoader.parse(text: shipped, file: "gestures.toml")
        let keys = try ConfigLoader.keysRead(text: shipped)
        // The names the file chooses are not keys of the schema.
        let chosen = Set(configuration.model.views.map(\.name) + configuration.model.gestures.map(\.name))
            .union(configuration.daemon.environment.map(\.name))
        let schema = keys.subtracting(chosen)
        // A guard against a reader that stops reporting: the file's own keys are among them.
        #expect(schema.isSuperset(of: ["socket_group", "frame", "edges", "should_receive_touch", "datagram", "calibration"]))
        let documented = Self.codeWords(try Self.read(Self.root + "/docs/CONFIG.md"))
        let missing = schema.subtracting(documented).sorted()
        #expect(missing.isEmpty, "config keys missing from docs/CONFIG.md (the man page gestures.toml(5)): \(missing)")
    }
}
