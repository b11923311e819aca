// Writes the evemu recordings the daemon measurements replay (scripts/daemon-bench.py):
//   BenchRecordings taps FILE [COUNT]         one-finger taps, 200 ms apart (latency)
//   BenchRecordings ten-fingers FILE [SECONDS] ten fingers circling at 240 Hz (CPU time)
// Both on the synthetic 10-slot panel of the engine benchmarks (`GeneratedStream.device`).

import BenchScenarios
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let kind = ["taps", "ten-fingers"].first(where: { $0 == arguments[1] }) else {
    print("usage: BenchRecordings taps|ten-fingers FILE [COUNT|SECONDS]")
    exit(2)
}
let amount = arguments.count > 3 ? Int(arguments[3]) : nil
let events = kind == "taps" ? GeneratedStream.taps(count: amount ?? 100) : GeneratedStream.circling(contacts: 10, seconds: amount ?? 20)
do {
    try EvemuRecording(info: GeneratedStream.device, events: events).write(to: arguments[2])
} catch {
    print("BenchRecordings: \(error)")
    exit(1)
}
