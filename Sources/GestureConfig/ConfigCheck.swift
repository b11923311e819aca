#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl check` and `gestured --check FILE`: validate a config (its main file and
/// drop-ins) as the daemon would load it and print the files in order, the resolved
/// gestures (or one gesture's keys and the files that set them, `explain`) and any
/// warnings (`ConfigWarning`), or every error.
public enum ConfigCheck {
    /// Prints the report to standard output, or the errors to standard error (warnings too,
    /// with status 0); returns the exit status (0 valid, 1 invalid or unreadable). As root, also applies `ConfigFileSafety`.
    public static func run(tree: ConfigTree, candidate: ConfigTree.Candidate? = nil, explain: String? = nil) -> Int32 {
        run(
            tree: tree, candidate: candidate, explain: explain, enforceSafety: ConfigFileSafety.isRoot,
            output: { print($0) },
            errors: { line in
                let text = line + "\n"
                _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            })
    }

    /// The same with the outputs and the safety rule given (tests, other front ends).
    /// `candidate`: a file checked in place of a drop-in (`--as-dropin`).
    public static func run(
        tree: ConfigTree, candidate: ConfigTree.Candidate? = nil, explain: String? = nil, enforceSafety: Bool,
        output: (String) -> Void, errors: (String) -> Void
    ) -> Int32 {
        let path = tree.mainFile
        do {
            let listing = try tree.list(candidate: candidate)
            let dropIns = listing.files.count - 1
            // The candidate is named by the drop-in it stands for; where it was read from
            // is said once, in the listing.
            let place = candidate.map { (path: $0.path, shown: tree.place(of: $0)) }
            if dropIns > 0 || !listing.skipped.isEmpty { output(text(of: listing, candidate: place)) }
            var sources = try ConfigLoader.read(files: listing.files, enforcingSafety: enforceSafety)
            for index in sources.indices where sources[index].file == place?.path {
                sources[index].file = place?.shown ?? sources[index].file
            }
            let (configuration, merged) = try ConfigLoader.build(sources)
            if let explain {
                // A gesture of that name first; else `daemon`, the [daemon] section.
                guard
                    let lines = ConfigExplanation.lines(gesture: explain, configuration: configuration, sources: merged)
                        ?? (explain == "daemon" ? ConfigExplanation.lines(daemon: configuration.daemon, sources: merged) : nil)
                else {
                    let names = configuration.model.gestures.map(\.name).joined(separator: ", ")
                    errors("\(path): no gesture '\(explain)'; its gestures: \(names) (or daemon: the [daemon] settings)")
                    return 1
                }
                output(lines.joined(separator: "\n"))
            } else {
                output(ConfigReport.text(of: configuration))
            }
            for warning in configuration.warnings { errors(warning.description) }
            let count = configuration.model.gestures.count
            let files = dropIns == 0 ? path : "\(path) and \(dropIns) \(dropIns == 1 ? "drop-in" : "drop-ins")"
            output("\(files): OK, \(count) \(count == 1 ? "gesture" : "gestures")")
            return 0
        } catch {
            errors(error.description)
            let count = error.diagnostics.count
            if count > 1 { errors("\(path): \(count) errors") }
            return 1
        }
    }

    /// The files read, in order, and the drop-ins passed over.
    static func text(of listing: ConfigTree.Listing, candidate: (path: String, shown: String)? = nil) -> String {
        func shown(_ file: String) -> String { file == candidate?.path ? candidate?.shown ?? file : file }
        var lines = ["files:"]
        for file in listing.files {
            lines.append(file == candidate?.path ? "  \(shown(file)) (checked from \(file))" : "  \(file)")
        }
        for skipped in listing.skipped {
            lines.append("  not read: \(skipped.path) (\(skipped.masked ? "masked" : "replaced") by \(shown(skipped.by)))")
        }
        return lines.joined(separator: "\n")
    }
}
