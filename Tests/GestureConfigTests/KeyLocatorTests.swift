import Testing

@testable import GestureConfig

@Suite struct KeyLocatorTests {
    @Test func headersKeysAndDottedKeys() {
        let locator = KeyLocator(
            text: """
                # comment = not a key
                [gesture.a]
                  type = "tap"
                on.recognized.command = "x"
                [ gesture . "b c" ]
                'lit' = 1
                """)
        #expect(locator.position(of: ConfigKeyPath(keys: "gesture", "a")) == SourcePosition(line: 2, column: 10))
        #expect(locator.position(of: ConfigKeyPath(keys: "gesture", "a", "type")) == SourcePosition(line: 3, column: 3))
        #expect(
            locator.position(of: ConfigKeyPath(keys: "gesture", "a", "on", "recognized", "command"))
                == SourcePosition(line: 4, column: 15))
        #expect(locator.position(of: ConfigKeyPath(keys: "gesture", "b c")) == SourcePosition(line: 5, column: 13))
        #expect(locator.position(of: ConfigKeyPath(keys: "gesture", "b c", "lit")) == SourcePosition(line: 6, column: 1))
    }

    @Test func valuesSpanningLinesAreSkipped() {
        let locator = KeyLocator(
            text: #"""
                a = """
                b = "not a key"
                """
                c = [
                  "d = 1", # e = 2
                  { f = 1 },
                ]
                g = '''
                h = 3'''
                i = 'x # y'
                j = "q\"k = 1"
                l = 1
                """#)
        #expect(locator.position(of: ConfigKeyPath(keys: "c")) == SourcePosition(line: 4, column: 1))
        #expect(locator.position(of: ConfigKeyPath(keys: "g")) == SourcePosition(line: 8, column: 1))
        #expect(locator.position(of: ConfigKeyPath(keys: "l")) == SourcePosition(line: 12, column: 1))
        // Keys inside values were not taken for keys: they fall back to the top (1:1).
        for fake in ["b", "d", "e", "h", "k"] {
            #expect(locator.position(of: ConfigKeyPath(keys: fake)) == SourcePosition(line: 1, column: 1))
        }
    }

    @Test func inlineTableKeysPointAtTheEnclosingKey() {
        let locator = KeyLocator(text: "[view.map]\nframe = { x = 1, y = 2 }\n")
        #expect(locator.position(of: ConfigKeyPath(keys: "view", "map", "frame", "y")) == SourcePosition(line: 2, column: 1))
    }

    @Test func arraysOfTablesAreIndexed() {
        let locator = KeyLocator(text: "[[device]]\nname = \"a\"\n[[device]]\nname = \"b\"\n[device.output]\nx = 1\n")
        #expect(locator.position(of: ConfigKeyPath([.key("device"), .index(1), .key("name")])) == SourcePosition(line: 4, column: 1))
        #expect(
            locator.position(of: ConfigKeyPath([.key("device"), .index(1), .key("output"), .key("x")]))
                == SourcePosition(line: 6, column: 1))
        #expect(locator.position(of: ConfigKeyPath([.key("device"), .index(0)])) == SourcePosition(line: 1, column: 3))
    }

    @Test func aTablesHeaderBeatsAnEarlierImpliedMention() {
        let locator = KeyLocator(text: "[gesture.a.on.ended]\ncommand = \"x\"\n[gesture.a]\ntype = \"pan\"\n")
        #expect(locator.position(of: ConfigKeyPath(keys: "gesture", "a")) == SourcePosition(line: 3, column: 10))
    }

    /// A key of 33 parts is refused at its 33rd part, in a header, a key
    /// line or an inline table; 32 parts, numbers and dates are not.
    @Test func keysOfMoreThan32PartsAreRefusedWhereTheLimitIsPassed() {
        let parts = { (count: Int) in Array(repeating: "a", count: count).joined(separator: ".") }
        let message = "a dotted key or table name of more than 32 parts (the limit)"
        #expect(KeyLocator(text: "[\(parts(32))]\n\(parts(32)) = 1\nx = { \(parts(32)) = 1 }\n").refusal == nil)
        #expect(KeyLocator(text: "pi = 3.14\nt = 1979-05-27T07:32:00.999Z\nv = [1.5, 2.5]\n").refusal == nil)
        for (text, column) in [("[\(parts(33))]", 66), ("\(parts(33)) = 1", 65), ("x = { \(parts(33)) = 1 }", 70)] {
            let refusal = KeyLocator(text: "\n" + text + "\n").refusal
            #expect(refusal?.position == SourcePosition(line: 2, column: column), "\(text)")
            #expect(refusal?.message == message)
        }
    }

    @Test func moreThan65536KeysAndValuesAreRefused() {
        let refusal = KeyLocator(text: "x = [" + String(repeating: "1,", count: 70_000) + "]\n").refusal
        #expect(refusal?.position == SourcePosition(line: 1, column: 2 * 65_536 + 3))
        #expect(refusal?.message == "more than 65536 keys and values in the file (the limit)")
        #expect(KeyLocator(text: "x = [" + String(repeating: "1,", count: 60_000) + "]\n").refusal == nil)
    }

    @Test func keyPathsPrintAsTheyAreWritten() {
        #expect(ConfigKeyPath([.key("device"), .index(2), .key("size_mm")]).description == "device[2].size_mm")
        #expect(ConfigKeyPath(keys: "view", "my map").description == "view.\"my map\"")
    }
}
