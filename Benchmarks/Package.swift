// swift-tools-version: 6.1
// The benchmarks of gestured, in their own package so the main package's build and tests do
// not pay for the benchmark framework. Run through `make bench` (mk/bench.mk), which builds
// with `--scratch-path .build-bench`.
import PackageDescription

let package = Package(
    name: "gestured-benchmarks",
    dependencies: [
        .package(name: "gestured", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // 0.x: a minor release may change behaviour, so only patch releases are taken.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", .upToNextMinor(from: "0.2.0")),
    ],
    targets: [
        // Models, generated and recorded input streams, and the loop that feeds them through
        // the daemon's pipeline (normalizer -> engine).
        .target(name: "BenchScenarios", dependencies: [
            .product(name: "GestureCore", package: "gestured"),
            .product(name: "TouchInput", package: "gestured"),
            .product(name: "GestureConfig", package: "gestured"),
            .product(name: "TouchPipeline", package: "gestured"),
            .product(name: "GestureDaemon", package: "gestured"),
            .product(name: "GestureControl", package: "gestured"),
            .product(name: "SystemLoop", package: "gestured"),
        ], path: "BenchScenarios"),
        // ordo-one benchmarks: throughput and allocations per frame, per-frame latency.
        .executableTarget(name: "EngineBenchmarks", dependencies: [
            "BenchScenarios",
            .product(name: "GestureControl", package: "gestured"),
            .product(name: "Benchmark", package: "benchmark"),
        ], path: "EngineBenchmarks", plugins: [
            .plugin(name: "BenchmarkPlugin", package: "benchmark"),
        ]),
        // One scenario without the framework, for profilers.
        .executableTarget(name: "BenchProfile", dependencies: ["BenchScenarios"], path: "BenchProfile"),
        // The recordings the daemon measurements replay.
        .executableTarget(name: "BenchRecordings", dependencies: ["BenchScenarios"], path: "BenchRecordings"),
        // Reads the exported histograms (and the daemon measurements) and prints one table.
        .executableTarget(name: "BenchReport", dependencies: [
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ], path: "BenchReport"),
    ]
)
