import LinuxSystem
import Testing

@testable import GestureConfig

#if canImport(Glibc)
import Glibc
#endif

/// Drop-ins: which files are read and in what order (ordering, replacement, masking), and
/// what `check` says about a tree.
@Suite struct DropInTests {
    /// A main file and `/usr/lib`, `/run` and `/etc` stand-ins under a fresh temporary
    /// directory, removed by `remove()`.
    struct Tree {
        let root: String
        var main: String { root + "/gestures.toml" }
        var directories: [String] { ["usr", "run", "etc"].map { root + "/" + $0 } }
        var tree: ConfigTree { ConfigTree(mainFile: main, dropInDirectories: directories) }

        init() throws {
            var template = Array("/tmp/gestured-dropins-XXXXXX".utf8CString)
            root = String(cString: try #require(mkdtemp(&template)))
            for directory in directories { mkdir(directory, 0o755) }
            try WholeFile.write(Fixture.screen + "[gesture.tap]\ntype = \"tap\"\n", to: main)
        }

        func write(_ text: String, _ directory: String, _ name: String) throws {
            try WholeFile.write(text, to: path(directory, name))
        }

        func path(_ directory: String, _ name: String) -> String { root + "/" + directory + "/" + name }

        func remove() { _ = system("rm -rf '\(root)'") }
    }

    @Test func filesAreSortedByNameAcrossDirectoriesAndTheLatestDirectoryWins() throws {
        let t = try Tree()
        defer { t.remove() }
        try t.write("[gesture.a]\ntype = \"tap\"\n", "usr", "10-vendor.toml")
        try t.write("[gesture.b]\ntype = \"tap\"\n", "etc", "20-site.toml")
        try t.write("[gesture.c]\ntype = \"tap\"\n", "run", "05-runtime.toml")
        try t.write("[gesture.old]\ntype = \"tap\"\n", "usr", "20-site.toml")
        try t.write("not toml at all [", "etc", "README")
        try t.write("not read", "etc", ".hidden.toml")
        let listing = try t.tree.list()
        #expect(
            listing.files == [t.main, t.path("run", "05-runtime.toml"), t.path("usr", "10-vendor.toml"), t.path("etc", "20-site.toml")])
        #expect(listing.skipped == [.init(path: t.path("usr", "20-site.toml"), by: t.path("etc", "20-site.toml"), masked: false)])
        let configuration = try ConfigLoader.load(tree: t.tree)
        #expect(configuration.model.gestures.map(\.name) == ["tap", "c", "a", "b"])
        #expect(configuration.files == listing.files)
    }

    @Test func anEmptyFileOrALinkToDevNullMasksTheName() throws {
        let t = try Tree()
        defer { t.remove() }
        try t.write("[gesture.a]\ntype = \"tap\"\n", "usr", "10-a.toml")
        try t.write("[gesture.b]\ntype = \"tap\"\n", "usr", "20-b.toml")
        try t.write("", "etc", "10-a.toml")
        #expect(symlink("/dev/null", t.path("run", "20-b.toml")) == 0)
        let listing = try t.tree.list()
        #expect(listing.files == [t.main])
        #expect(listing.skipped.map(\.masked) == [true, true])
        #expect(try ConfigLoader.load(tree: t.tree).model.gestures.map(\.name) == ["tap"])
    }

    @Test func theDefaultFileReadsTheStandardDirectoriesAndAnotherItsOwn() {
        #expect(
            ConfigTree(mainFile: "/etc/gestured/gestures.toml").dropInDirectories
                == ["/usr/lib/gestured/gestures.d", "/run/gestured/gestures.d", "/etc/gestured/gestures.d"])
        #expect(ConfigTree(mainFile: "config/gestures.toml").dropInDirectories == ["config/gestures.d"])
        #expect(ConfigTree(mainFile: "vm/tap.toml").dropInDirectories == ["vm/tap.d"])
    }

    @Test func aBrokenDropInRefusesTheTreeNamingItsFile() throws {
        let t = try Tree()
        defer { t.remove() }
        try t.write("[gesture.tap]\ntaps = \"two\"\n", "etc", "50-site.toml")
        #expect(throws: ConfigError.self) { try ConfigLoader.load(tree: t.tree) }
        do {
            _ = try ConfigLoader.load(tree: t.tree)
        } catch {
            #expect(
                error.description == t.path("etc", "50-site.toml")
                    + ":2:1: error: gesture.tap.taps: wrong type: expected an integer from 0 to 20, found \"two\"")
        }
    }

    @Test func tooManyFilesInADirectoryAreRefused() throws {
        let t = try Tree()
        defer { t.remove() }
        for n in 0...ConfigTree.maximumFilesPerDirectory { try t.write("", "run", "\(n).toml") }
        #expect(
            throws: ConfigError.dropIns(path: t.root + "/run", reason: "more than 128 .toml files in the drop-in directory (the limit)")
        ) {
            try t.tree.list()
        }
    }

    @Test func checkListsTheFilesExplainsAGestureAndChecksACandidate() throws {
        let t = try Tree()
        defer { t.remove() }
        try t.write("[gesture.tap]\ntaps = 2\n", "usr", "50-site.toml")
        var output: [String] = []
        var errors: [String] = []
        func check(candidate: ConfigTree.Candidate? = nil, explain: String? = nil) -> Int32 {
            output = []
            errors = []
            return ConfigCheck.run(
                tree: t.tree, candidate: candidate, explain: explain, enforceSafety: false, output: { output.append($0) },
                errors: { errors.append($0) })
        }
        #expect(check() == 0)
        #expect(output.first == "files:\n  \(t.main)\n  \(t.path("usr", "50-site.toml"))")
        #expect(output.last == "\(t.main) and 1 drop-in: OK, 1 gesture")

        #expect(check(explain: "tap") == 0)
        #expect(output[1].contains("taps = 2  # \(t.path("usr", "50-site.toml")):2:1\n"), "\(output)")
        #expect(output[1].contains("max_movement = 10px  # default") || output[1].contains("# default"), "\(output)")
        #expect(check(explain: "nope") == 1)
        #expect(errors == ["\(t.main): no gesture 'nope'; its gestures: tap (or daemon: the [daemon] settings)"])

        // The candidate takes the name's place in the last directory, over /usr/lib's, and
        // is named by that place (a configuration manager's temporary path means nothing to
        // the operator), over the file it will replace there.
        let candidate = t.root + "/tmpab12cd"
        let place = t.path("etc", "50-site.toml")
        try WholeFile.write("[gesture.tap]\ntaps = 9\n", to: place)
        try WholeFile.write("[gesture.tap]\ntaps = -2\n", to: candidate)
        #expect(check(candidate: .init(path: candidate, name: "50-site.toml")) == 1)
        #expect(errors.first?.hasPrefix("\(place):2:1: error: gesture.tap.taps: out of range") == true, "\(errors)")
        #expect(
            output.first
                == "files:\n  \(t.main)\n  \(place) (checked from \(candidate))\n"
                + "  not read: \(t.path("usr", "50-site.toml")) (replaced by \(place))")
        try WholeFile.write("[gesture.tap]\ntaps = 3\n", to: candidate)
        #expect(check(candidate: .init(path: candidate, name: "50-site.toml")) == 0)
    }

    /// The errors a drop-in's `type` makes in the main file's keys of the gesture are shown
    /// at the drop-in's line, each naming the main file's key and the value `type` replaced.
    @Test func errorsADropInCausedAreShownAtItsLine() throws {
        let t = try Tree()
        defer { t.remove() }
        try WholeFile.write(
            Fixture.screen + "[gesture.reload]\ntype = \"long-press\"\ntouches = 3\nmin_duration = \"2s\"\n", to: t.main)
        let site = t.path("etc", "50-site.toml")
        try t.write("# the site's\n[gesture.reload]\ntype = \"tap\"\n", "etc", "50-site.toml")
        do {
            _ = try ConfigLoader.load(tree: t.tree)
            Issue.record("expected the tree to be refused")
        } catch {
            let diagnostic = try #require(error.diagnostics.first)
            #expect(error.diagnostics.count == 1, "\(error)")
            #expect(diagnostic.location == ConfigLocation(file: t.main, fileIndex: 0, position: .init(line: 7, column: 1)))
            #expect(diagnostic.shownLocation == ConfigLocation(file: site, fileIndex: 1, position: .init(line: 3, column: 1)))
            #expect(
                error.description
                    == "\(site):3:1: error: gesture.reload.type: set here, replacing the value at \(t.main):5:1, it breaks "
                    + "gesture.reload.min_duration at \(t.main):7:1: \(diagnostic.fullMessage)")
            #expect(diagnostic.fullMessage.contains("min_duration"), "\(diagnostic)")
            #expect(error.files == [site])
        }
    }

    /// A problem the main file has on its own stays the main file's, even when a drop-in
    /// sets another key of the same gesture; the drop-in's own problems are its own.
    @Test func aProblemTheMainFileHasAloneStaysItsOwn() throws {
        let t = try Tree()
        defer { t.remove() }
        try WholeFile.write(Fixture.screen + "[gesture.tap]\ntype = \"tap\"\ntaps = -1\n", to: t.main)
        try t.write("[gesture.tap]\ntouches = 2\n[gesture.other]\ntype = \"swipe\"\nmin_speed = \"fast\"\n", "etc", "50-site.toml")
        do {
            _ = try ConfigLoader.load(tree: t.tree)
            Issue.record("expected the tree to be refused")
        } catch {
            #expect(error.diagnostics.count == 2, "\(error)")
            #expect(error.diagnostics.allSatisfy { $0.cause == nil }, "\(error)")
            #expect(error.description.hasPrefix("\(t.main):6:1: error: gesture.tap.taps"), "\(error)")
            #expect(error.files == [t.main, t.path("etc", "50-site.toml")])
        }
    }

    /// A drop-in that closes a failure-requirement cycle is told so at its own line, with
    /// the main file's edge of the cycle.
    @Test func aCycleADropInClosedIsShownAtItsLine() throws {
        let t = try Tree()
        defer { t.remove() }
        try WholeFile.write(
            Fixture.screen + "[gesture.pan]\ntype = \"pan\"\nrequire_to_fail = [\"swipe\"]\n[gesture.swipe]\ntype = \"swipe\"\n",
            to: t.main)
        let site = t.path("etc", "50-site.toml")
        try t.write("[gesture.swipe]\nrequire_to_fail = [\"pan\"]\n", "etc", "50-site.toml")
        do {
            _ = try ConfigLoader.load(tree: t.tree)
            Issue.record("expected the tree to be refused")
        } catch {
            #expect(
                error.description
                    == "\(site):2:1: error: gesture.swipe.require_to_fail: failure requirements form a cycle: "
                    + "pan -> swipe -> pan (with gesture.pan.require_to_fail at \(t.main):6:1): "
                    + "expected gestures that wait for each other's failure in one direction only")
        }
    }

    /// `--explain daemon`: the [daemon] keys in force with the file that set each (and the
    /// value a drop-in replaced), then every other setting at its default.
    @Test func explainDaemonShowsTheEffectiveSettingsAndTheirFiles() throws {
        let t = try Tree()
        defer { t.remove() }
        try WholeFile.write("[daemon]\nlog_level = \"debug\"\nmax_children = 4\n" + Fixture.screen, to: t.main)
        let site = t.path("etc", "50-metrics.toml")
        try t.write("[daemon]\nmetrics_file = \"/var/lib/m/g.prom\"\nmax_children = 8\n", "etc", "50-metrics.toml")
        var output: [String] = []
        let status = ConfigCheck.run(
            tree: t.tree, explain: "daemon", enforceSafety: false, output: { output.append($0) }, errors: { _ in })
        #expect(status == 0)
        let lines = output[1].split(separator: "\n").map(String.init)
        #expect(lines.first == "[daemon]  # \(t.main):1:2")
        #expect(lines.contains("log_level = \"debug\"  # \(t.main):2:1"), "\(lines)")
        #expect(lines.contains("max_children = 8  # \(site):3:1, replacing \(t.main):3:1"), "\(lines)")
        #expect(lines.contains("metrics_file = \"/var/lib/m/g.prom\"  # \(site):2:1"), "\(lines)")
        #expect(lines.contains("socket_mode = 0o660  # default"), "\(lines)")
        #expect(lines.contains("command_timeout = \"10s\"  # default"), "\(lines)")
        #expect(lines.contains("# socket_group: not set (default)"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("max_children") && $0.hasSuffix("# default") })
    }
}
