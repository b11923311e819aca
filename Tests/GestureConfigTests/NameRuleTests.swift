import Testing

@testable import GestureConfig

/// View and gesture names are TOML bare keys, so no name can split a
/// socket message or forge a line ("floor\n+1" reached a listener as two lines).
@Suite struct NameRuleTests {
    func errors(_ text: String) -> [String] {
        do {
            _ = try ConfigLoader.parse(text: "[screen]\nwidth = 800\nheight = 600\n" + text, file: "test.toml")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aNameWithANewlineQuoteSpaceOrAccentIsRefusedAtItsCharacter() {
        let expected = "expected a name of ASCII letters, digits, '_' and '-', at most 64 characters"
        #expect(
            errors("[view.\"floor\\n+1\"]\n[view.\"floor +1\"]\n[gesture.\"t\\\"ap\"]\ntype = \"tap\"\n[gesture.'café']\ntype = \"tap\"\n")
                == [
                    "test.toml:4:7: error: view.\"floor\\n+1\": view name with a newline (U+000A) at column 6 of the name: \(expected)",
                    "test.toml:5:7: error: view.\"floor +1\": view name with a space at column 6 of the name: \(expected)",
                    "test.toml:6:10: error: gesture.\"t\\\"ap\": gesture name with '\"' at column 2 of the name: \(expected)",
                    "test.toml:8:10: error: gesture.\"café\": gesture name with 'é' (U+00E9) at column 4 of the name: \(expected)",
                ])
    }

    @Test func namesOfLettersDigitsUnderscoresAndHyphensUpTo64AreTaken() {
        let longest = String(repeating: "v", count: 64)
        #expect(errors("[view.Map-2_b]\n[view.\(longest)]\n[gesture.tap-1]\ntype = \"tap\"\nview = \"\(longest)\"\n").isEmpty)
        #expect(
            errors("[view.\(longest)v]\n") == [
                "test.toml:4:7: error: view.\"\(longest.prefix(32))... (65 characters)\": view name of 65 characters: expected a name of ASCII letters, digits, '_' and '-', at most 64 characters"
            ])
        #expect(
            errors("[view.\"\"]\n").first?.hasSuffix(
                "view name of 0 characters: expected a name of ASCII letters, digits, '_' and '-', at most 64 characters") == true)
    }
}
