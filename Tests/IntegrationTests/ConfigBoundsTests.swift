import ActionDispatch
import SystemLoop
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl check` on hostile config files: each is refused with its bound
/// and its line:col, quickly and in little memory, whatever the file holds up to the 4 MiB
/// cap. Times are generous for a loaded machine (a debug build, other tests running):
/// memory is the sharp bound. The old costs were 6 s to minutes and 0.7 to 2.8 GB.
@Suite struct ConfigBoundsTests {
    /// What `gesturectl check FILE` did.
    struct Check {
        var status: Int32
        var stderr: String
        var seconds: Double
        var maxResidentMiB: Double
    }

    /// Runs the check under GNU time (`make deps` installs it): ru_maxrss as the test
    /// process's own wait4 sees it would start from this process's size, the child being
    /// spawned from its address space.
    func check(_ text: String) throws -> Check {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.file("hostile.toml")
        let err = dir.file("check.err")
        let peak = dir.file("peak")
        try writeText(text, to: file)
        try #require(access("/usr/bin/time", X_OK) == 0, "GNU time is missing: make deps installs it")
        let start = MonotonicClock.now()
        let result = try ChildProcess.run(
            "/bin/sh",
            arguments: [
                "-c", "exec /usr/bin/time -f %M -o '\(peak)' '\(Binary.gesturectl)' check '\(file)' 2> '\(err)' > /dev/null",
            ])
        let seconds = Double(MonotonicClock.now() - start) / 1_000_000
        let kib = try #require(Double(readText(peak)?.split(separator: "\n").last ?? ""), "no peak from GNU time")
        return Check(status: result.status, stderr: readText(err) ?? "", seconds: seconds, maxResidentMiB: kib / 1024)
    }

    /// Item 3: `[a.a.a...]` was quadratic (10,000 parts: 6.2 s and 1.24 GB; 50,000 aborted).
    @Test(arguments: [10_000, 2_097_150])
    func aDeeplyDottedHeaderIsRefusedAtItsLimit(parts: Int) throws {
        let result = try check("[" + Array(repeating: "a", count: parts).joined(separator: ".") + "]\n")
        #expect(result.status == 1)
        #expect(
            result.stderr.hasSuffix(
                "hostile.toml:1:66: error: a dotted key or table name of more than 32 parts (the limit)\n"), "\(result.stderr.prefix(300))")
        #expect(result.seconds < 15 && result.maxResidentMiB < 64, "\(result.seconds) s, \(result.maxResidentMiB) MiB")
    }

    /// Item 3, any file up to the cap: 700,000 `[[a]]` tables or a 2-million-element array.
    @Test(arguments: ["[[a]]\n", "x = [" + String(repeating: "1,", count: 20) + "]\n"])
    func aFileOfTooManyValuesIsRefusedAtItsLimit(line: String) throws {
        let text = String(repeating: line, count: (4 << 20) / line.utf8.count - 1)
        let result = try check(text)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("error: more than 65536 keys and values in the file (the limit)"),
            "\(result.stderr.prefix(300))")
        #expect(result.seconds < 15 && result.maxResidentMiB < 64, "\(result.seconds) s, \(result.maxResidentMiB) MiB")
    }

    /// Item 4: a 3 MiB unknown key took 31 s and 707 MB (a full edit-distance table per
    /// candidate) and was printed twice in full (6 MiB of stderr).
    @Test func aLongUnknownKeyIsShownShortenedWithItsLength() throws {
        let key = String(repeating: "k", count: 3 << 20)
        let result = try check("[daemon]\n\(key) = 1\n[screen]\nwidth = 800\nheight = 480\n")
        let shown = String(repeating: "k", count: 32) + "... (3145728 characters)"
        #expect(result.status == 1)
        #expect(
            result.stderr == "\(result.stderr.prefix { $0 != ":" }):2:1: error: daemon.\"\(shown)\": unknown key '\(shown)'\n",
            "\(result.stderr.prefix(300))")
        #expect(result.seconds < 15 && result.maxResidentMiB < 64, "\(result.seconds) s, \(result.maxResidentMiB) MiB")
    }
}

/// What `check` warns about, the daemon logs at start and on reload.
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct ConfigWarningLogTests {
    @Test func aSocketAnyoneMayUseIsLoggedAtStartAndOnReload() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("gestures.toml")
        try writeText(TestConfig.tapAndPan(daemon: "socket_mode = \"0666\""), to: config)
        let daemon = try GesturedProcess(config: config, dir: dir, replay: Recording.taps)
        let warning = "gestures.toml:2:1: warning: daemon.socket_mode: anyone on this machine may connect"
        #expect(daemon.log.ranges(of: warning).count == 1, "\(daemon.log)")
        _ = try daemon.request(.reload)
        #expect(
            eventually { daemon.log.contains("reload: ") && daemon.log.ranges(of: warning).count == 2 },
            "\(daemon.log)")
        try daemon.stop()
    }
}
