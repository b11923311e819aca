import GestureConfig
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Loading real files: safety rules, unreadable files, and `ConfigCheck`'s exit status.
@Suite struct ConfigFileTests {
    @Test func safetyRuleOnOwnerAndMode() {
        #expect(ConfigFileSafety.problem(owner: 0, mode: 0o100644, path: "/etc/g.toml") == nil)
        #expect(ConfigFileSafety.problem(owner: 0, mode: 0o100600, path: "/etc/g.toml") == nil)
        #expect(
            ConfigFileSafety.problem(owner: 0, mode: 0o100664, path: "/etc/g.toml")
                == "it is writable by group (mode 0664), and its actions run as root (chmod go-w /etc/g.toml)")
        #expect(
            ConfigFileSafety.problem(owner: 0, mode: 0o100646, path: "/etc/g.toml")
                == "it is writable by others (mode 0646), and its actions run as root (chmod go-w /etc/g.toml)")
        #expect(
            ConfigFileSafety.problem(owner: 0, mode: 0o100666, path: "/etc/g.toml")
                == "it is writable by group and others (mode 0666), and its actions run as root (chmod go-w /etc/g.toml)")
        #expect(
            ConfigFileSafety.problem(owner: 1000, mode: 0o100644, path: "/etc/g.toml")
                == "it is owned by uid 1000, not root, and its actions run as root (chown root /etc/g.toml)")
    }

    /// The real stat of a real file, whoever runs the tests.
    @Test func safetyOnARealFile() throws {
        let file = TemporaryFile(contents: Fixture.screen, mode: 0o666)
        let problem = try #require(ConfigFileSafety.problem(path: file.path))
        if geteuid() == 0 {
            #expect(problem.hasPrefix("it is writable by group and others (mode 0666)"))
            chmod(file.path, 0o644)
            #expect(ConfigFileSafety.problem(path: file.path) == nil)
            chown(file.path, 1000, 1000)
        }
        #expect(ConfigFileSafety.problem(path: file.path)?.hasPrefix("it is owned by uid ") == true)
        #expect(ConfigFileSafety.problem(path: file.path + ".missing") == "cannot stat it: No such file or directory")
    }

    @Test func loadEnforcingSafetyChecksTheFileItReads() throws {
        let file = TemporaryFile(contents: Fixture.screen, mode: 0o606)
        #expect(throws: ConfigError.self) { try ConfigLoader.load(path: file.path, enforcingSafety: true) }
        do {
            _ = try ConfigLoader.load(path: file.path, enforcingSafety: true)
        } catch {
            guard case .unsafe(let path, let reason) = error else {
                Issue.record("expected an unsafe-file error, got \(error)")
                return
            }
            #expect(path == file.path)
            #expect(reason.contains(geteuid() == 0 ? "writable by others (mode 0606)" : "not root"))
        }
        // Without enforcement the same file loads.
        #expect(try ConfigLoader.load(path: file.path).model.screen.width == 800)
    }

    @Test func unreadableFileSaysWhy() {
        #expect(throws: ConfigError.unreadable(path: "/nonexistent/g.toml", reason: "No such file or directory")) {
            try ConfigLoader.load(path: "/nonexistent/g.toml")
        }
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        #expect(throws: ConfigError.unreadable(path: directory, reason: "Is a directory")) {
            try ConfigLoader.load(path: directory)
        }
    }

    /// A FIFO used to hang the open until a writer came (#18): now it is refused at once,
    /// as is any file that is not a regular file, saying what it is.
    @Test func aFIFOOrDeviceIsRefusedSayingWhatItIs() throws {
        let file = TemporaryFile(contents: "")
        unlink(file.path)
        try #require(mkfifo(file.path, 0o600) == 0)
        #expect(throws: ConfigError.unreadable(path: file.path, reason: "is a FIFO (named pipe), not a regular file")) {
            try ConfigLoader.load(path: file.path)
        }
        #expect(throws: ConfigError.unreadable(path: "/dev/null", reason: "is a character device, not a regular file")) {
            try ConfigLoader.load(path: "/dev/null")
        }
    }

    @Test func checkExitStatusAndErrorsOnAnInvalidFile() {
        let file = TemporaryFile(contents: Fixture.screen + "[gesture.a]\ntype = \"tapp\"\n[gesture.b]\ntype = \"tap\"\nmin_press = 60\n")
        var output: [String] = []
        var errors: [String] = []
        let status = ConfigCheck.run(
            tree: ConfigTree(mainFile: file.path), enforceSafety: false,
            output: { output.append($0) }, errors: { errors.append($0) })
        #expect(status == 1)
        #expect(output.isEmpty)
        #expect(
            errors == [
                "\(file.path):5:1: error: gesture.a.type: unknown gesture type 'tapp': expected tap, long-press, pan, swipe, pinch, rotation, edge-pan (did you mean 'tap'?)"
                    + "\n\(file.path):8:1: error: gesture.b.min_press: a number needs a unit here: expected a duration such as \"300ms\" or \"0.5s\", found 60",
                "\(file.path): 2 errors",
            ])
    }

    @Test func checkCountsOneGestureInTheSingular() {
        let file = TemporaryFile(contents: Fixture.screen + "[gesture.a]\ntype = \"tap\"\n")
        var output: [String] = []
        let status = ConfigCheck.run(
            tree: ConfigTree(mainFile: file.path), enforceSafety: false, output: { output.append($0) }, errors: { _ in })
        #expect(status == 0)
        #expect(output.last == "\(file.path): OK, 1 gesture")
    }

    /// Issue #18 item 14: a byte that is not UTF-8 gets its line:col, as a NUL does.
    @Test func aByteThatIsNotUTF8IsPlacedAtItsLineAndColumn() {
        let file = TemporaryFile(bytes: Array("[screen]\nwidth = 800 # café ".utf8) + [0xE2, 0x82] + Array("\nheight = 6\n".utf8))
        #expect(
            throws: ConfigError.syntax(
                Diagnostic(
                    location: ConfigLocation(file: file.path, position: SourcePosition(line: 2, column: 20)),
                    keyPath: ConfigKeyPath(), message: "byte 0xE2 is not UTF-8 (TOML files are UTF-8)"))
        ) {
            try ConfigLoader.load(path: file.path)
        }
        let first = TemporaryFile(bytes: [0xFF] + Array("[screen]\n".utf8))
        #expect(
            throws: ConfigError.syntax(
                Diagnostic(
                    location: ConfigLocation(file: first.path, position: SourcePosition(line: 1, column: 1)),
                    keyPath: ConfigKeyPath(), message: "byte 0xFF is not UTF-8 (TOML files are UTF-8)"))
        ) {
            try ConfigLoader.load(path: first.path)
        }
    }

    @Test func checkRefusesAnUnsafeFileWhenEnforcing() {
        let file = TemporaryFile(contents: Fixture.screen, mode: 0o666)
        var errors: [String] = []
        let status = ConfigCheck.run(
            tree: ConfigTree(mainFile: file.path), enforceSafety: true, output: { _ in }, errors: { errors.append($0) })
        #expect(status == 1)
        #expect(errors.first?.hasPrefix("\(file.path): error: refusing to load the config file: it is ") == true)
    }
}
