// Engine + normalizer benchmarks, per scenario (`Scenario.all`):
//
// - `<scenario>:throughput`: 1,000 frames per iteration through the daemon's pipeline;
//   wall clock, throughput and heap allocations (ordo-one's malloc interposer), all scaled
//   to one frame.
// - `<scenario>:latency`: the same frames, each timed on its own (CLOCK_MONOTONIC around
//   one frame's events) into the custom metric `frameNanoseconds`, whose histogram gives
//   the per-frame percentiles. `set-` scenarios perform a runtime `set` before each frame,
//   outside the timing (the throughput row counts it: its time and allocations).
// - `control:throughput`: an empty iteration, measuring the framework's own allocations
//   per iteration, which `BenchReport` subtracts from every scenario's count.
// - `metrics:render`: one Prometheus exposition (`MetricsRenderer.render`) of a kiosk's status
//   (`KioskStatus`) per iteration: wall clock and heap allocations. It runs every
//   `metrics_interval` and on `gesturectl metrics`, never on the frame path.
//
// `make bench` runs them and reads the exported histograms (`BenchReport`).

import BenchScenarios
import Benchmark
import GestureControl

#if canImport(Glibc)
import Glibc
#endif

/// Runners are built in `setup`, outside the measurement; the framework runs one benchmark
/// at a time on one thread.
final class RunnerBox: @unchecked Sendable {
    var runner: StreamRunner?
}

final class StatusBox: @unchecked Sendable {
    var status: DaemonStatus?
}

let frameNanoseconds = BenchmarkMetric.custom("frameNanoseconds", polarity: .prefersSmaller, useScalingFactor: false)

@inline(__always) func monotonicNanoseconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

let benchmarks: @Sendable () -> Void = {
    let throughput = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds, warmupIterations: 20, scalingFactor: .kilo,
        maxDuration: .milliseconds(1500), maxIterations: 100_000)
    let latency = Benchmark.Configuration(
        metrics: [frameNanoseconds],
        timeUnits: .nanoseconds, warmupIterations: 20, scalingFactor: .kilo,
        maxDuration: .milliseconds(1500), maxIterations: 100_000)

    Benchmark("control:throughput", configuration: throughput) { benchmark in
        for i in benchmark.scaledIterations { blackHole(i) }
    }

    let status = StatusBox()
    Benchmark(
        "metrics:render",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 20,
            maxDuration: .milliseconds(1500), maxIterations: 100_000),
        closure: { benchmark in
            let status = status.status!
            // One renderer, as the daemon keeps one: its buffers grow in the warm-up.
            let renderer = MetricsRenderer()
            for _ in benchmark.scaledIterations { blackHole(renderer.render(status).count) }
        }, setup: { status.status = try KioskStatus.make() }, teardown: { status.status = nil })

    for scenario in Scenario.all {
        let box = RunnerBox()
        let setup: Benchmark.BenchmarkSetupHook = { box.runner = try scenario.makeRunner() }
        let teardown: Benchmark.BenchmarkTeardownHook = { box.runner = nil }

        Benchmark(
            "\(scenario.name):throughput", configuration: throughput,
            closure: { benchmark in
                let runner = box.runner!
                for _ in benchmark.scaledIterations {
                    runner.prepare()
                    runner.step()
                }
                blackHole(runner.emitted)
            }, setup: setup, teardown: teardown)

        Benchmark(
            "\(scenario.name):latency", configuration: latency,
            closure: { benchmark in
                let runner = box.runner!
                for _ in benchmark.scaledIterations {
                    runner.prepare()
                    let start = monotonicNanoseconds()
                    runner.step()
                    benchmark.measurement(frameNanoseconds, monotonicNanoseconds() - start)
                }
                blackHole(runner.emitted)
            }, setup: setup, teardown: teardown)
    }
}
