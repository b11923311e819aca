import GestureControl
import TestSupport
import Testing

/// What the README and the packaged examples say about the programs and the package holds:
/// every gesturectl verb in the README's table, every packaged example named, and the
/// metrics drop-in starting the unit on a kiosk without node_exporter's directory.
@Suite struct ReadmeTruthTests {
    private static let root = TestConfig.goldensDirectory + "/../../.."

    private static func text(_ path: String) throws -> String {
        try #require(readText(root + "/" + path), "cannot read \(path)")
    }

    /// Each verb of `gesturectl --experimental-dump-help` has a row of the README's table
    /// (`| \`VERB ...`), `play` included (the README's own example uses it).
    @Test func theReadmeTableHasEveryVerb() throws {
        let run = try ChildProcess.run(Binary.gesturectl, arguments: ["--experimental-dump-help"])
        let tool = try JSONParser.parse(Array(run.output.utf8))
        let verbs = try #require(tool["command"]?["subcommands"]?.arrayValue).compactMap { $0["commandName"]?.stringValue }
        #expect(verbs.contains("play"))
        let rows = try Self.text("README.md").split(separator: "\n").filter { $0.hasPrefix("| `") }
        for verb in verbs where verb != "help" {
            #expect(rows.contains { $0.hasPrefix("| `\(verb)`") || $0.hasPrefix("| `\(verb) ") }, "README: no row for \(verb)")
        }
    }

    /// The examples `make install` puts in the docs' examples folder are the ones the README
    /// names, and it counts them right.
    @Test func theReadmeNamesEveryPackagedExample() throws {
        let make = try Self.text("mk/systemd.mk")
        let line = try #require(make.split(separator: "\n").first { $0.contains("$(DOCDIR)/examples/") && $0.contains("install -m") })
        let examples = line.split(separator: " ").filter { $0.hasPrefix("systemd/") }.map { String($0.dropFirst("systemd/".count)) }
        #expect(examples.count == 3, "\(examples)")
        let readme = try Self.text("README.md")
        for example in examples { #expect(readme.contains("`\(example)`"), "README does not name \(example)") }
        #expect(readme.contains("and three\nexamples there"))
    }

    /// `ReadWritePaths=-DIR`: a directory that does not exist (node_exporter not installed)
    /// is skipped, not a failed start (226/NAMESPACE); setfacl's package is named.
    @Test func theMetricsDropInToleratesAMissingDirectory() throws {
        let dropIn = try Self.text("systemd/gestured-metrics.conf")
        let paths = dropIn.split(separator: "\n").filter { $0.hasPrefix("ReadWritePaths=") }
        #expect(!paths.isEmpty)
        for line in paths { #expect(line.hasPrefix("ReadWritePaths=-/"), "\(line)") }
        #expect(dropIn.contains("acl package"))
        #expect(try Self.text("docs/MONITORING.md").contains("`acl` package"))
    }

    /// CONFIG.md's `metrics_file` row sends the reader to the page that has the setup.
    @Test func theMetricsFileRowPointsToMonitoring() throws {
        let row = try #require(Self.text("docs/CONFIG.md").split(separator: "\n").first { $0.hasPrefix("| `metrics_file` |") })
        #expect(row.contains("docs/MONITORING.md"))
        #expect(!row.contains("README"))
    }
}
