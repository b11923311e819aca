import LinuxSystem
import Testing

@testable import GestureControl

#if canImport(Glibc)
import Glibc
#endif

/// Prometheus' own tool (Debian's `prometheus`, which `make deps` installs): the tests that
/// hold the exposition and the alert rules to Prometheus' parser run it.
enum Promtool {
    /// Its path; nil where it is missing, which fails the calling test under CI and only
    /// says so elsewhere.
    static func path() -> String? {
        let candidates: [String] = ["/usr/bin/promtool", "/usr/local/bin/promtool"]
        let found = candidates.first { access($0, X_OK) == 0 }
        if found == nil {
            let ci = ProcessEnvironment.current()["CI"] == "true"
            #expect(!ci, "promtool is missing under CI: install Debian's prometheus (make deps)")
            if !ci { print("promtool not found: not checked by Prometheus (apt-get install prometheus)") }
        }
        return found
    }

    /// Runs promtool with `arguments` (shell words, quoted by the caller) and `input` on
    /// its standard input: the exit status and what it printed.
    static func run(_ promtool: String, _ arguments: String, input: String = "") throws -> (status: Int32, output: String) {
        let base = "/tmp/gestured-promtool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try WholeFile.write(input, to: base + ".in")
        defer {
            unlink(base + ".in")
            unlink(base + ".out")
        }
        let status = system("'\(promtool)' \(arguments) < '\(base).in' > '\(base).out' 2>&1")
        return (status, String(decoding: try WholeFile.read(base + ".out", maximumSize: 1 << 20), as: UTF8.self))
    }
}
