import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl check` on configs that trip a newcomer, against checked-in outputs
/// (`Goldens/check/NAME.toml` -> `NAME.out`: the exit status, standard output and standard
/// error of `gesturectl check NAME.toml` run beside the file). After a deliberate change of
/// wording, run the suite with GOLDEN_WRITE=1 to rewrite them and review the diff.
@Suite struct CheckGoldenTests {
    static let cases = [
        "pan-first", "same-gesture-twice", "edge-pan-away-from-edge", "view-outside-screen",
        "array-as-string", "placeholder-type", "unquoted-unit", "did-you-mean", "shipped",
    ]

    static var directory: String { TestConfig.goldensDirectory + "/check" }

    /// What `check` prints for `name`: the file is copied into a directory of the test's
    /// own (as root, check refuses a file others may write, and a clone's modes vary).
    static func run(_ name: String) throws -> String {
        let source = name == "shipped" ? TestConfig.shippedPath : directory + "/\(name).toml"
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("\(name).toml")
        try writeText(try #require(readText(source)), to: config)
        chmod(config, 0o644)
        let err = dir.file("check.err")
        let result = try ChildProcess.run(
            "/bin/sh", arguments: ["-c", "cd '\(dir.path)' && exec '\(Binary.gesturectl)' check '\(name).toml' 2> '\(err)'"])
        return "exit \(result.status)\n--- stdout\n\(result.output)--- stderr\n\(readText(err) ?? "")"
    }

    @Test(arguments: cases)
    func matchesGolden(_ name: String) throws {
        let output = try Self.run(name)
        let golden = Self.directory + "/\(name).out"
        if getenv("GOLDEN_WRITE") != nil { try writeText(output, to: golden) }
        #expect(output == readText(golden), "gesturectl check \(name).toml")
    }

    /// The traps are warnings: the file still loads (exit 0), each warning on standard error
    /// with its line, and the report on standard output. Errors exit 1.
    @Test func warningsKeepExitZeroAndErrorsDoNot() throws {
        for name in ["pan-first", "same-gesture-twice", "edge-pan-away-from-edge", "view-outside-screen", "array-as-string"] {
            let output = try Self.run(name)
            #expect(output.hasPrefix("exit 0\n"), "\(name)")
            #expect(output.contains(": warning: "), "\(name)")
            #expect(output.contains("\(name).toml: OK, "), "\(name)")
        }
        for name in ["placeholder-type", "unquoted-unit", "did-you-mean"] {
            #expect(try Self.run(name).hasPrefix("exit 1\n"), "\(name)")
        }
    }
}
