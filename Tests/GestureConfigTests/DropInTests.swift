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
        #expect(errors == ["\(t.main): no gesture 'nope'; its gestures: tap"])

        // The candidate takes the name's place in the last directory, over /usr/lib's.
        let candidate = t.root + "/candidate"
        try WholeFile.write("[gesture.tap]\ntaps = -2\n", to: candidate)
        #expect(check(candidate: .init(path: candidate, name: "50-site.toml")) == 1)
        #expect(errors.first?.hasPrefix("\(candidate):2:1: error: gesture.tap.taps: out of range") == true, "\(errors)")
        #expect(output.first?.contains("not read: \(t.path("usr", "50-site.toml")) (replaced by \(candidate))") == true)
        try WholeFile.write("[gesture.tap]\ntaps = 3\n", to: candidate)
        #expect(check(candidate: .init(path: candidate, name: "50-site.toml")) == 0)
    }
}
