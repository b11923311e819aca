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

    /// `--explain daemon`: the `[daemon]` keys the files set, each with the file that set
    /// it, then every other setting in force at its default.
    static func lines(daemon settings: DaemonSettings, sources: MergedSources) -> [String] {
        let path = ConfigKeyPath(keys: "daemon")
        guard let table = sources.root["daemon"]?.table else {
            return ["[daemon]  # in no file: every setting at its default"] + defaults(settings, without: nil)
        }
        var lines = ["[daemon]  # \(sources.location(of: path))"]
        keys(of: table, at: path, relative: ConfigKeyPath(), sources: sources, into: &lines)
        return lines + defaults(settings, without: table)
    }

    /// The settings no file set (not in `table`), as `key = value  # default`.
    private static func defaults(_ settings: DaemonSettings, without table: TOMLTable?) -> [String] {
        let unset = "  # default: not set"
        let values: [(String, String)] = [
            ("socket", settings.socketPath.map { "\"\($0)\"" } ?? unset),
            ("socket_mode", ConfigBuilder.octal(Int(settings.socketMode))),
            ("socket_group", settings.socketGroup.map { "\"\($0)\"" } ?? unset),
            ("control_group", settings.controlGroup.map { "\"\($0)\"" } ?? unset),
            ("log_level", "\"\(settings.logLevel)\""),
            ("shell", "\"\(settings.shell)\""),
            ("environment", "{ " + settings.environment.map { "\($0.name) = \"\($0.value)\"" }.joined(separator: ", ") + " }"),
            ("command_timeout", "\"\(Units.format(duration: settings.commandTimeout))\""),
            ("kill_grace", "\"\(Units.format(duration: settings.killGrace))\""),
            ("max_children", "\(settings.maxChildren)"),
            ("subscriber_buffer", "\(settings.subscriberBuffer)"),
            ("socket_queue", "\(settings.socketQueue)"),
            ("metrics_file", settings.metricsFile.map { "\"\($0)\"" } ?? unset),
            ("metrics_interval", "\"\(Units.format(duration: settings.metricsInterval))\""),
            ("frame_rate", settings.frameRate.description),
        ]
        return values.filter { table?[$0.0] == nil }.map { key, value in
            value == unset ? "# \(key): not set (default)" : "\(key) = \(value)  # default"
        }
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
