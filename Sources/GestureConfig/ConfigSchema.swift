extension ConfigLoader {
    /// The key names the readers ask for while building `text` (valid TOML): the schema as
    /// the code reads it, table names and user-chosen names (views, gestures, environment
    /// variables) included. The reference test checks that docs/CONFIG.md names each key.
    static func keysRead(text: String) throws -> Set<String> {
        let sink = DiagnosticSink(file: "schema", locator: KeyLocator(text: text))
        _ = ConfigBuilder(root: try TOMLTable.parse(text), sink: sink).build()
        return sink.keysRead
    }
}
