import GestureCore

/// `gesturectl check --explain GESTURE`: every key of one gesture as the config's files
/// set it, each with the file, line and column that set it (and where the values it
/// replaced were), then the parameters left at their defaults.
enum ConfigExplanation {
    /// Nil when the config has no such gesture.
    static func lines(gesture name: String, configuration: Configuration, sources: MergedSources) -> [String]? {
        let path = ConfigKeyPath(keys: "gesture", name)
        guard let spec = configuration.model.gestures.first(where: { $0.name == name }),
            let table = sources.root["gesture"]?.table?[name]?.table
        else { return nil }
        var lines = ["[\(path)]  # \(sources.location(of: path))"]
        keys(of: table, at: path, relative: ConfigKeyPath(), sources: sources, into: &lines)
        for setting in spec.parameterValues where table[setting.key] == nil {
            lines.append("\(setting.key) = \(setting.value)  # default")
        }
        return lines
    }

    /// One line per value under `table` (arrays of tables, the actions, entry by entry),
    /// in the order the files set them.
    private static func keys(
        of table: TOMLTable, at path: ConfigKeyPath, relative: ConfigKeyPath, sources: MergedSources,
        into lines: inout [String]
    ) {
        let ordered = table.keys.sorted { sources.location(of: path.appending($0)) < sources.location(of: path.appending($1)) }
        for key in ordered {
            guard let value = table[key] else { continue }
            let keyPath = path.appending(key)
            let shown = relative.appending(key)
            if let inner = value.table {
                keys(of: inner, at: keyPath, relative: shown, sources: sources, into: &lines)
            } else if let array = value.array, !array.isEmpty, array.allSatisfy({ $0.table != nil }) {
                for (index, element) in array.enumerated() {
                    keys(
                        of: element.table ?? table, at: keyPath.appending(index: index), relative: shown.appending(index: index),
                        sources: sources, into: &lines)
                }
            } else {
                var line = "\(shown) = \(text(of: value))  # \(sources.location(of: keyPath))"
                let replaced = sources.replaced(at: keyPath)
                if !replaced.isEmpty { line += ", replacing " + replaced.map(\.description).joined(separator: ", ") }
                lines.append(line)
            }
        }
    }

    /// A value in TOML syntax, shortened as diagnostics shorten names.
    static func text(of value: TOMLValue) -> String {
        switch value {
        case .array(let elements): "[" + elements.map(text(of:)).joined(separator: ", ") + "]"
        case .table(let table):
            "{ " + table.keys.map { "\($0) = \(table[$0].map(text(of:)) ?? "")" }.joined(separator: ", ") + " }"
        default: TableReader.render(value)
        }
    }
}
