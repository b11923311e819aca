extension ConfigLoader {
    /// The key names the readers ask for while building `text` (valid TOML): the schema as
    /// the code reads it, table names and user-chosen names (views, gestures, environment
    /// variables) included. The reference test checks that docs/CONFIG.md names each key.
    static func keysRead(text: String) throws -> Set<String> {
        let source = ParsedSource(file: "schema", locator: KeyLocator(text: text), table: try TOMLTable.parse(text))
        let sink = DiagnosticSink(sources: MergedSources([source]))
        _ = ConfigBuilder(root: source.table, sink: sink).build()
        return sink.keysRead
    }
}
