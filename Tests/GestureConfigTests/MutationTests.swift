import TestSupport
import Testing

@testable import GestureConfig

/// Property: random mutations of a valid file never crash the parser, the locator or the
/// validator; a refused file always says where, within the file.
@Suite struct MutationTests {
    /// Fragments that are likely to make interesting damage in this schema.
    static let fragments = [
        "[", "]", "[[", "[\n", "[=", "[[ ", "\"", "'", "=", "{", "}", ",", ".", "#", "\n", "-", "%", "ms", "0", "1e9", "\"\"\"", "\\",
        "type = \"pinch\"\n", "require_to_fail = [\"wake\"]\n", "[gesture.x]\n", "[view.map]\n", "\u{00e9}",
        "on.recognized.command = \"{x}\"\n", "taps = -1\n", "min_press = \"-1s\"\n", "view = \"nowhere\"\n",
    ]

    static func mutate(_ lines: [String], using rng: inout SeededGenerator) -> [String] {
        var lines = lines
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let i = Int.random(in: 0..<lines.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: lines.remove(at: i)
            case 1: lines.insert(lines[Int.random(in: 0..<lines.count, using: &rng)], at: i)
            case 2: lines.swapAt(i, Int.random(in: 0..<lines.count, using: &rng))
            case 3:
                var scalars = Array(lines[i].unicodeScalars)
                if !scalars.isEmpty { scalars.remove(at: Int.random(in: 0..<scalars.count, using: &rng)) }
                lines[i] = String(String.UnicodeScalarView(scalars))
            case 4:
                var line = lines[i]
                let cut = line.index(line.startIndex, offsetBy: Int.random(in: 0...line.count, using: &rng))
                line.insert(contentsOf: fragments.randomElement(using: &rng)!, at: cut)
                lines[i] = line
            default:
                lines[i] = lines[i].replacing("\"", with: "")
            }
            if lines.isEmpty { lines = [""] }
        }
        return lines
    }

    @Test func randomMutationsOfTheShippedFileNeverCrash() throws {
        let original = try FileText.read(path: Fixture.shippedConfigPath)
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var rng = SeededGenerator(seed: 0x6765_7374_7572_6564)
        var refused = 0
        for round in 0..<400 {
            let text = Self.mutate(lines, using: &rng).joined(separator: "\n")
            let lineCount = text.count { $0 == "\n" } + 1
            do {
                _ = try ConfigLoader.parse(text: text, file: "mutant.toml")
            } catch {
                refused += 1
                #expect(!error.diagnostics.isEmpty, "round \(round): refused without a diagnostic")
                for diagnostic in error.diagnostics {
                    #expect(
                        (1...lineCount + 1).contains(diagnostic.location.position.line) && diagnostic.location.position.column >= 1,
                        "round \(round): \(diagnostic) is outside the file")
                }
            }
        }
        // Most mutations break something; some (a swapped comment line) do not.
        #expect(refused > 200)
    }
}
