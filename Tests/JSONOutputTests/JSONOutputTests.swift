import JSONOutput
import Testing

/// JSON text without Foundation: escaping and number formatting (`JSONText`) and the
/// reused-buffer writer (`JSONWriter`) that the event stream and the status are made with.
@Suite struct JSONOutputTests {
    @Test func jsonStringsAreEscaped() {
        #expect(JSONText.string("a\"b\\c\nd\u{1}é") == "\"a\\\"b\\\\c\\nd\\u0001é\"")
        #expect(JSONText.number(.nan) == "null")
        #expect(JSONText.fixed(2.0, decimals: 3) == "2")
        #expect(JSONText.fixed(-0.0004, decimals: 3) == "0")
        #expect(JSONText.fixed(-0.5, decimals: 3) == "-0.5")
        #expect(JSONText.fixed(10.0625, decimals: 3) == "10.063")
        #expect(JSONText.number(0.125) == "0.125")
        #expect(JSONText.fixed(.infinity, decimals: 3) == "null")
        // JSONWriter writes exactly the decimals asked for; JSONText trims them.
        var writer = JSONWriter()
        writer.fixed(2.5, decimals: 3)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "2.500")
    }

    /// Objects, arrays, keys and values with their commas, as one line; `reset` empties the
    /// buffer and keeps its capacity for the next line.
    @Test func writerNestsValuesWithTheirSeparators() {
        var writer = JSONWriter(capacity: 64)
        writer.beginObject()
        writer.key("name")
        writer.string("tap \"2\"")
        writer.key("touches")
        writer.beginArray()
        writer.int(-3)
        writer.fixed(0.125, decimals: 3)
        writer.bool(true)
        writer.null()
        writer.endArray()
        writer.key("raw")
        writer.raw(Array("{\"a\":1}".utf8))
        writer.endObject()
        writer.newline()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self) == #"{"name":"tap \"2\"","touches":[-3,0.125,true,null],"raw":{"a":1}}"# + "\n")
        let capacity = writer.bytes.capacity
        writer.reset()
        #expect(writer.bytes.isEmpty)
        #expect(writer.bytes.capacity == capacity)
    }
}
