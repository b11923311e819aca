import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A reload frees what it parsed: a kiosk reloaded every minute by a config-management
/// agent keeps its size (TOMLKit 0.6.0 kept 33 KB of every parse).
@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct ReloadMemoryTests {
    @Test func aThousandReloadsOfTheShippedConfigGrowTheDaemonByLessThanOneMiB() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let daemon = try GesturedProcess(config: TestConfig.shippedPath, dir: dir, replay: Recording.taps)
        let client = try daemon.client()
        // Warm-up: allocator arenas and the first reload's one-time costs settle.
        for _ in 0..<100 { _ = try client.request(.reload) }
        let before = try #require(residentKiB(of: daemon.pid))
        for _ in 0..<1_000 { _ = try client.request(.reload) }
        let after = try #require(residentKiB(of: daemon.pid))
        #expect(after - before < 1_024, "resident \(before) KiB -> \(after) KiB over 1,000 reloads")
        try daemon.stop()
    }

    /// VmRSS of a process in KiB.
    private func residentKiB(of pid: pid_t) -> Int? {
        guard let status = readText("/proc/\(pid)/status") else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }
}
