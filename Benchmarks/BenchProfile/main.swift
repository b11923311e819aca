// Runs one scenario for a number of frames without the benchmark framework, for profilers
// (`valgrind --tool=callgrind`, `perf record`) and for the pipeline's resident size before
// and after them (after a warm-up of 1,000,000 frames; daemon-bench.py reads `rss_before_kib=`
// and `rss_after_kib=`):
//   BenchProfile [scenario-name] [frames]     (default generated-10c_32g-8v, 1,000,000)

import BenchScenarios

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
let name = arguments.count > 1 ? arguments[1] : "generated-10c_32g-8v"
let frames = arguments.count > 2 ? Int(arguments[2]) ?? 0 : 1_000_000
guard let scenario = Scenario.all.first(where: { $0.name == name }), frames > 0 else {
    print("usage: BenchProfile [SCENARIO] [FRAMES]; scenarios: " + Scenario.all.map(\.name).joined(separator: " "))
    exit(2)
}
let runner: StreamRunner
do { runner = try scenario.makeRunner() } catch {
    print("BenchProfile: \(error)")
    exit(1)
}
/// VmRSS of this process, KiB.
func residentKiB() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(cString: line)
        if text.hasPrefix("VmRSS:") { return Int(text.split(separator: " ").dropFirst().first ?? "") ?? -1 }
    }
    return -1
}

// Warm-up: first-use paths and the first pages of code and data, before the first reading.
for _ in 0..<min(frames, 1_000_000) { runner.step() }
_ = residentKiB()  // the reading's own first use (stdio buffers) is not the pipeline's
let residentBefore = residentKiB()
var start = timespec()
var end = timespec()
clock_gettime(CLOCK_MONOTONIC, &start)
for _ in 0..<frames { runner.step() }
clock_gettime(CLOCK_MONOTONIC, &end)
let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
print(
    "\(name): \(frames) frames in \(seconds) s: \(Int(Double(frames) / seconds)) frames/s, \(runner.emitted) events,",
    "\(runner.healthNotices) health notices",
    "rss_before_kib=\(residentBefore) rss_after_kib=\(residentKiB())")
