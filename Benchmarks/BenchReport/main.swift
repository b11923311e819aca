// Turns one `make bench` run into one table: the ordo-one histograms of EngineBenchmarks
// (exported with `--format histogramEncoded`) and the daemon measurements (JSON written by
// `scripts/daemon-bench.py`). Prints Markdown and writes the same numbers as JSON.
//
//   BenchReport --histograms DIR [--daemon FILE] --json FILE [--markdown FILE]

import Foundation
import Histogram

struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// One engine scenario, from its `:throughput` and `:latency` benchmarks.
struct EngineRow: Codable {
    var scenario: String
    var input: String
    var gestures: Int
    var views: Int
    var framesPerSecond: Double
    var p50Nanoseconds: UInt64
    var p99Nanoseconds: UInt64
    var p999Nanoseconds: UInt64
    var maxNanoseconds: UInt64
    var latencySamples: UInt64
    /// Mean heap allocations per frame over every measured iteration, and the most in one
    /// iteration of 1,000 frames (ordo-one's malloc interposer).
    var allocationsPerFrame: Double
    var maxAllocationsPer1000Frames: UInt64
}

/// One daemon-level measurement (items 3-6 of the issue).
struct DaemonRow: Codable {
    var measure: String
    var value: Double?
    var unit: String
    var target: String
    /// pass, miss, pending (not measured, `note` says why) or info.
    var status: String
    var note: String?
}

struct DaemonFile: Codable {
    var rows: [DaemonRow]
}

struct Target: Codable {
    var target: String
    var measured: String
    var status: String
}

/// One metrics render (`metrics:render`): the Prometheus exposition of a kiosk's status.
struct MetricsRow: Codable {
    var p50Nanoseconds: UInt64
    var p99Nanoseconds: UInt64
    /// Mean heap allocations per render, and the most in one.
    var allocations: Double
    var maxAllocations: UInt64
}

struct Report: Codable {
    var date: String
    var machine: String
    var command: String
    var engine: [EngineRow]
    var targets: [Target]
    var metrics: MetricsRow?
    var daemon: [DaemonRow]
}

/// Frames per benchmark iteration (`scalingFactor: .kilo` in EngineBenchmarks).
let framesPerIteration = 1000.0

func histogram(_ directory: String, _ benchmark: String, _ metric: String) throws -> Histogram<UInt> {
    let path = "\(directory)/Current_run.EngineBenchmarks.\(benchmark).\(metric).histogram.json"
    guard let data = FileManager.default.contents(atPath: path) else {
        throw Failure(description: "\(path): cannot be read (did the benchmark '\(benchmark)' run and export?)")
    }
    do {
        return try JSONDecoder().decode(Histogram<UInt>.self, from: data)
    } catch {
        throw Failure(description: "\(path): not an exported histogram: \(error)")
    }
}

/// `generated-10c_32g-8v` -> ("generated, 10 contacts", 32, 8); `delivery-...`,
/// `health-...`, `nohealth-...`, `set-...` and `rule-...` add the touch delivery, the health
/// stage (every rule on, every rule off), the set or the one health rule to the input's name.
func parse(scenario: String) -> (input: String, gestures: Int, views: Int)? {
    for (prefix, added) in [
        ("delivery-", "touch delivery (forwarder into /dev/null)"), ("health-", "every health rule on"),
        ("nohealth-", "every health rule off"),
        ("set-", "a set before each frame (latency: the frame after it; throughput: both)"),
        ("rule-edge-hold-", "edge_hold on beside the defaults"), ("rule-outlier-", "outlier (jump) on beside the defaults"),
    ] {
        if scenario.hasPrefix(prefix), let plain = parse(scenario: String(scenario.dropFirst(prefix.count))) {
            return (plain.input + ", " + added, plain.gestures, plain.views)
        }
    }
    let parts = scenario.split(separator: "_")
    guard parts.count == 2 else { return nil }
    let sizes = parts[1].split(separator: "-")
    guard sizes.count == 2, let g = Int(sizes[0].dropLast()), let v = Int(sizes[1].dropLast()) else { return nil }
    var input = String(parts[0])
    if input.hasPrefix("generated-") {
        let contacts = input.dropFirst("generated-".count).dropLast()
        input = "generated, \(contacts) contact\(contacts == "1" ? "" : "s")"
    }
    return (input, g, v)
}

func engineRows(_ directory: String) throws -> [EngineRow] {
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
    let prefix = "Current_run.EngineBenchmarks."
    let suffix = ":latency.frameNanoseconds.histogram.json"
    let scenarios = files.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
        .map { String($0.dropFirst(prefix.count).dropLast(suffix.count)) }
    guard !scenarios.isEmpty else { throw Failure(description: "\(directory): no exported latency histograms") }
    var rows: [EngineRow] = []
    for scenario in scenarios {
        guard let (input, gestures, views) = parse(scenario: scenario) else { continue }
        let latency = try histogram(directory, "\(scenario):latency", "frameNanoseconds")
        let wallClock = try histogram(directory, "\(scenario):throughput", "wallClock")
        let mallocs = try histogram(directory, "\(scenario):throughput", "mallocCountTotal")
        rows.append(
            EngineRow(
                scenario: scenario, input: input, gestures: gestures, views: views,
                framesPerSecond: 1e9 * framesPerIteration / Double(wallClock.valueAtPercentile(50)),
                p50Nanoseconds: latency.valueAtPercentile(50), p99Nanoseconds: latency.valueAtPercentile(99),
                p999Nanoseconds: latency.valueAtPercentile(99.9), maxNanoseconds: latency.max,
                latencySamples: latency.totalCount,
                allocationsPerFrame: mallocs.mean / framesPerIteration, maxAllocationsPer1000Frames: mallocs.max))
    }
    // Generated inputs by contacts, then recordings; smaller models first, touch delivery
    // and the health stage after the same input without them.
    func key(_ r: EngineRow) -> (Int, Int, Int) {
        let contacts = Int(r.input.split(separator: " ").dropFirst().first ?? "") ?? 1000
        let stages = ["delivery-", "nohealth-", "health-", "set-", "rule-"]
        let stage = (stages.firstIndex { r.scenario.hasPrefix($0) } ?? -1) + 1
        return (contacts, r.gestures, stage)
    }
    return rows.sorted { key($0) < key($1) }
}

/// The metrics render, when its benchmark ran.
func metricsRow(_ directory: String) throws -> MetricsRow? {
    let name = "metrics:render"
    guard FileManager.default.fileExists(atPath: "\(directory)/Current_run.EngineBenchmarks.\(name).wallClock.histogram.json") else {
        return nil
    }
    let wallClock = try histogram(directory, name, "wallClock")
    let mallocs = try histogram(directory, name, "mallocCountTotal")
    return MetricsRow(
        p50Nanoseconds: wallClock.valueAtPercentile(50), p99Nanoseconds: wallClock.valueAtPercentile(99),
        allocations: mallocs.mean, maxAllocations: mallocs.max)
}

/// The issue's targets for the engine, checked on the rows.
func engineTargets(_ rows: [EngineRow]) -> [Target] {
    var targets: [Target] = []
    if let main = rows.first(where: { $0.scenario == "generated-10c_32g-8v" }) {
        targets.append(
            Target(
                target: ">= 500,000 frames/s (10 contacts, 32 gestures, 8 views)",
                measured: number(main.framesPerSecond),
                status: main.framesPerSecond >= 500_000 ? "pass" : "miss"))
        targets.append(
            Target(
                target: "p99 < 10 µs per frame (10 contacts, 32 gestures, 8 views)",
                measured: micro(main.p99Nanoseconds) + " µs",
                status: main.p99Nanoseconds < 10_000 ? "pass" : "miss"))
    }
    // A `set-` row's throughput counts the set too, which allocates on the control path
    // (its reply and its record); the frame after it is the engine probe's (0).
    let allocating = rows.filter { $0.maxAllocationsPer1000Frames > 0 && !$0.scenario.hasPrefix("set-") }
    targets.append(
        Target(
            target: "0 allocations per frame in steady state (every scenario but set-, whose set allocates)",
            measured: allocating.isEmpty
                ? "0 in every iteration"
                : allocating.map { "\($0.scenario): \($0.maxAllocationsPer1000Frames) per 1,000 frames" }.joined(separator: "; "),
            status: allocating.isEmpty ? "pass" : "miss"))
    // 32 gestures on 8 views and 256 on 64 both put 4 gestures on each touched view: cost
    // linear in the gestures of the touched views means about the same cost (linear in all
    // gestures would mean up to 8 times); 2x is the allowance for noise and cache effects.
    for contacts in [1, 5, 10] {
        guard let small = rows.first(where: { $0.scenario == "generated-\(contacts)c_32g-8v" }),
            let large = rows.first(where: { $0.scenario == "generated-\(contacts)c_256g-64v" })
        else { continue }
        let ratio = Double(large.p50Nanoseconds) / Double(small.p50Nanoseconds)
        targets.append(
            Target(
                target:
                    "cost follows the gestures on touched views, not all gestures: \(contacts) contact\(contacts == 1 ? "" : "s"), p50 of 256g/64v over 32g/8v (4 per view in both, 8x the gestures) < 2",
                measured: String(format: "%.2fx", ratio), status: ratio < 2 ? "pass" : "miss"))
    }
    return targets
}

func number(_ value: Double) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.maximumFractionDigits = 0
    return formatter.string(from: NSNumber(value: value.rounded())) ?? "\(Int(value))"
}

func micro(_ nanoseconds: UInt64) -> String { String(format: "%.2f", Double(nanoseconds) / 1000) }

func markdown(_ report: Report) -> String {
    var out = "Machine: \(report.machine)  \nDate: \(report.date)  \nCommand: `\(report.command)`\n\n"
    out += "#### Engine + normalizer, per frame (`GesturePipeline.feed` of one `SYN_REPORT`'s events)\n\n"
    out += "| input | gestures / views | frames/s | p50 µs | p99 µs | p99.9 µs | max µs | allocations/frame |\n"
    out += "|---|---|---:|---:|---:|---:|---:|---:|\n"
    for r in report.engine {
        out += "| \(r.input) | \(r.gestures) / \(r.views) | \(number(r.framesPerSecond)) | \(micro(r.p50Nanoseconds)) "
        out += "| \(micro(r.p99Nanoseconds)) | \(micro(r.p999Nanoseconds)) | \(micro(r.maxNanoseconds)) "
        out += "| \(r.maxAllocationsPer1000Frames == 0 ? "0" : String(format: "%.4f", r.allocationsPerFrame)) |\n"
    }
    out += "\n| engine target | measured | |\n|---|---|---|\n"
    for t in report.targets { out += "| \(t.target) | \(t.measured) | \(t.status) |\n" }
    if let m = report.metrics {
        out += "\n#### Metrics, one render (`MetricsRenderer`, reused: the shipped config's gestures, 2 grabbed panels)\n\n"
        out += "| p50 µs | p99 µs | allocations |\n|---:|---:|---:|\n"
        out += "| \(micro(m.p50Nanoseconds)) | \(micro(m.p99Nanoseconds)) | \(String(format: "%.0f", m.allocations)) |\n"
        out += "\nNot on the frame path: it runs every `metrics_interval` (15 s by default) and on `gesturectl metrics`.\n"
    }
    if !report.daemon.isEmpty {
        out += "\n#### Daemon (release build, `--static-swift-stdlib`) and memory\n\n"
        out += "| measure | value | target | |\n|---|---:|---|---|\n"
        for d in report.daemon {
            let value =
                d.value.map { String(format: $0 >= 100 || d.unit.isEmpty ? "%.0f" : "%.2f", $0) + (d.unit.isEmpty ? "" : " " + d.unit) }
                ?? "-"
            out += "| \(d.measure) | \(value) | \(d.target) | \(d.status)\(d.note.map { ": " + $0 } ?? "") |\n"
        }
    }
    return out
}

func machine() -> String {
    var cpu = "unknown CPU"
    if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let name = line.split(separator: ":", maxSplits: 1).last
    {
        cpu = name.trimmingCharacters(in: .whitespaces)
    }
    var uts = utsname()
    uname(&uts)
    let release = withUnsafeBytes(of: uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
    return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(memory) GiB, Linux \(release)"
}

func run() throws {
    var options: [String: String] = [:]
    var arguments = CommandLine.arguments.dropFirst()
    while let name = arguments.popFirst() {
        guard name.hasPrefix("--"), let value = arguments.popFirst() else {
            throw Failure(description: "usage: BenchReport --histograms DIR [--daemon FILE] --json FILE [--markdown FILE] [--command TEXT]")
        }
        options[String(name.dropFirst(2))] = value
    }
    guard let directory = options["histograms"], let jsonPath = options["json"] else {
        throw Failure(description: "usage: BenchReport --histograms DIR [--daemon FILE] --json FILE [--markdown FILE] [--command TEXT]")
    }
    let rows = try engineRows(directory)
    var daemon: [DaemonRow] = []
    if let path = options["daemon"] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path): cannot be read") }
        do { daemon = try JSONDecoder().decode(DaemonFile.self, from: data).rows } catch {
            throw Failure(description: "\(path): not the daemon measurements' JSON: \(error)")
        }
    }
    let formatter = ISO8601DateFormatter()
    let report = Report(
        date: formatter.string(from: Date()), machine: machine(), command: options["command"] ?? "make bench",
        engine: rows, targets: engineTargets(rows), metrics: try metricsRow(directory), daemon: daemon)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
    let text = markdown(report)
    if let path = options["markdown"] { try text.write(toFile: path, atomically: true, encoding: .utf8) }
    print(text)
}

do { try run() } catch {
    FileHandle.standardError.write(Data("BenchReport: \(error)\n".utf8))
    exit(1)
}
