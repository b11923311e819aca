import LinuxSystem
import SystemLoop
import TestSupport
import Testing

/// Time comes from the loop: the daemon and everything it links take `EventLoop.now()` (or
/// the `LoopClock` they were given), so that a test's `ManualClock` moves all of it. Only the
/// clock type reads the monotonic clock; `gesturectl`'s pacing of recordings in real time
/// (`play`, `replay --realtime`), which has no loop, names `MonotonicClock`.
struct ClockReadTests {
    /// Where the monotonic clock is read: the clock type's own file.
    static let clockFile = "SystemLoop/MonotonicClock.swift"
    /// Who may name `MonotonicClock`: the loop's clock and gesturectl.
    static let clockUsers = [clockFile, "SystemLoop/LoopClock.swift"]
    static let clockUserDirectories = ["gesturectl/"]

    /// A monotonic read by any name Swift or Glibc gives it.
    static let monotonicReads = [
        "clock_gettime(CLOCK_MONOTONIC", "clock_gettime(CLOCK_BOOTTIME", "ContinuousClock", "SuspendingClock",
        "DispatchTime", "systemUptime",
    ]

    /// Each line of each Swift file under Sources/ that is code (not a comment) and holds one
    /// of `patterns`, as "file:line: text".
    static func lines(holding patterns: [String], except allowed: (String) -> Bool) throws -> [String] {
        let sources = packageRoot + "/Sources"
        var found: [String] = []
        for file in try files(under: sources, endingIn: ".swift") where !allowed(file) {
            let text = try String(decoding: WholeFile.read(sources + "/" + file, maximumSize: 1 << 20), as: UTF8.self)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.drop { $0 == " " }
                guard !code.hasPrefix("//"), patterns.contains(where: { code.contains($0) }) else { continue }
                found.append("\(file):\(number + 1): \(code)")
            }
        }
        return found
    }

    @Test func onlyTheClockTypeReadsTheMonotonicClock() throws {
        let reads = try Self.lines(holding: Self.monotonicReads) { $0 == Self.clockFile }
        #expect(reads.isEmpty, "read the loop's clock (EventLoop.now(), a LoopClock) instead:\n\(reads.joined(separator: "\n"))")
    }

    @Test func theDaemonTakesTimeFromItsLoop() throws {
        let reads = try Self.lines(holding: ["MonotonicClock"]) { file in
            Self.clockUsers.contains(file) || Self.clockUserDirectories.contains { file.hasPrefix($0) }
        }
        #expect(reads.isEmpty, "take the loop's now (EventLoop.now(), a LoopClock) instead:\n\(reads.joined(separator: "\n"))")
    }

    /// The scan finds what it looks for: the clock file itself holds a read.
    @Test func theScanSeesTheClocksOwnRead() throws {
        let reads = try Self.lines(holding: Self.monotonicReads) { $0 != Self.clockFile }
        #expect(reads.count == 1)
    }
}
