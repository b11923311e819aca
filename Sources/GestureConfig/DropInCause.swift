/// Which drop-in made a problem that sits in an earlier file. A drop-in that sets
/// `[gesture.reload] type = "tap"` makes the main file's long-press keys wrong: those
/// problems are placed at the main file's lines, which the operator did not touch. A
/// problem of file F is the later files' doing when reading the files up to F alone does
/// not find it; its cause is the key a later file set in the same gesture, view, mode,
/// device rule or section (`type` first, else the first such key in file order).
enum DropInCause {
    /// `diagnostics` (of `files`, merged as `sources`), each caused one given its cause.
    static func attributed(_ diagnostics: [Diagnostic], files: [ParsedSource], sources: MergedSources) -> [Diagnostic] {
        guard files.count > 1 else { return diagnostics }
        // The diagnostics of files 0...F alone, by F, built only for the F that need them.
        var alone: [Int: [Diagnostic]] = [:]
        return diagnostics.map { diagnostic in
            let file = diagnostic.location.fileIndex
            guard file < files.count - 1 else { return diagnostic }
            let earlier = alone[file] ?? problems(of: Array(files[...file]))
            alone[file] = earlier
            guard !earlier.contains(where: { $0.keyPath == diagnostic.keyPath && $0.fullMessage == diagnostic.fullMessage }),
                let key = laterKey(under: owner(of: diagnostic.keyPath), after: file, in: sources)
            else { return diagnostic }
            var caused = diagnostic
            caused.cause = Diagnostic.Cause(location: sources.location(of: key), keyPath: key, replaced: sources.replaced(at: key).last)
            return caused
        }
    }

    /// What the builder reports for `files` alone.
    private static func problems(of files: [ParsedSource]) -> [Diagnostic] {
        let merged = MergedSources(files)
        let sink = DiagnosticSink(sources: merged)
        _ = ConfigBuilder(root: merged.root, sink: sink).build()
        return sink.diagnostics
    }

    /// The named thing a key belongs to: `gesture.NAME`, `view.NAME`, `mode.NAME`,
    /// `device[N]`, or the top-level section (`daemon`, `screen`).
    static func owner(of path: ConfigKeyPath) -> ConfigKeyPath {
        guard case .key(let section)? = path.segments.first else { return ConfigKeyPath() }
        let named = ["gesture", "view", "mode", "device"].contains(section)
        return ConfigKeyPath(Array(path.segments.prefix(named ? 2 : 1)))
    }

    /// The key under `owner` that a file after `file` set: `type` when it is one, else the
    /// first in file order; nil when no later file set one.
    static func laterKey(under owner: ConfigKeyPath, after file: Int, in sources: MergedSources) -> ConfigKeyPath? {
        guard !owner.segments.isEmpty, let value = value(at: owner, in: sources.root) else { return nil }
        var keys: [ConfigKeyPath] = []
        leaves(of: value, at: owner, into: &keys)
        let later = keys.filter { sources.location(of: $0).fileIndex > file }
        return later.first { $0.segments.last == .key("type") }
            ?? later.min { sources.location(of: $0) < sources.location(of: $1) }
    }

    private static func value(at path: ConfigKeyPath, in root: TOMLTable) -> TOMLValue? {
        var value = TOMLValue.table(root)
        for segment in path.segments {
            switch segment {
            case .key(let key):
                guard let next = value.table?[key] else { return nil }
                value = next
            case .index(let index):
                guard let array = value.array, array.indices.contains(index) else { return nil }
                value = array[index]
            }
        }
        return value
    }

    /// The paths of the values under `value` that are not tables (an array is one value).
    private static func leaves(of value: TOMLValue, at path: ConfigKeyPath, into keys: inout [ConfigKeyPath]) {
        guard let table = value.table else {
            keys.append(path)
            return
        }
        for key in table.keys {
            if let inner = table[key] { leaves(of: inner, at: path.appending(key), into: &keys) }
        }
    }
}
