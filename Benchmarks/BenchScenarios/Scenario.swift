import GestureCore

/// One benchmark case: an input stream against a model.
public struct Scenario: Sendable {
    public enum Input: Sendable, Equatable {
        /// `GeneratedStream` with this many fingers.
        case generated(contacts: Int)
        /// Every real recording (`RecordedStream`).
        case recordings
    }

    public let input: Input
    public let model: BenchModel
    /// Touch delivery on (`passthrough = true`): every device's touches also go through a
    /// `TouchForwarder` into `/dev/null` (`StreamRunner`).
    public var delivery = false
    /// Every touch health rule on for every device (`TouchHealthSettings.everyRule`).
    public var health = false
    /// A runtime `set` (the first gesture off, then on again) before every frame
    /// (`StreamRunner.prepare`): the latency row is the frame right after a set.
    public var runtimeSet = false
    /// One health rule on beside the defaults (`HealthRule`).
    public var rule: HealthRule?

    /// Names the benchmark: `generated-10c_32g-8v`, `recordings_256g-64v`,
    /// `delivery-generated-10c_32g-8v`, `health-generated-10c_32g-8v`, `set-generated-10c_32g-8v`,
    /// `rule-edge-hold-generated-10c_32g-8v`.
    public var name: String {
        let inputName: String
        switch input {
        case .generated(let contacts): inputName = "generated-\(contacts)c"
        case .recordings: inputName = "recordings"
        }
        return
            "\(delivery ? "delivery-" : "")\(health ? "health-" : "")\(runtimeSet ? "set-" : "")\(rule.map { "rule-\($0.rawValue)-" } ?? "")\(inputName)_\(model.gestures)g-\(model.views)v"
    }

    /// 1, 5 and 10 fingers, and the recordings, each against the three model sizes; then
    /// touch delivery, the health stage with every rule on, and a `set` before every frame,
    /// with 1 and 10 fingers against the middle model; and so `edge_hold` and `outlier`, each
    /// alone beside the defaults.
    public static let all: [Scenario] = {
        let inputs: [Input] = [.generated(contacts: 1), .generated(contacts: 5), .generated(contacts: 10), .recordings]
        let delivered = [1, 10].map {
            Scenario(input: .generated(contacts: $0), model: BenchModel.all[1], delivery: true)
        }
        let guarded = [1, 10].map {
            Scenario(input: .generated(contacts: $0), model: BenchModel.all[1], health: true)
        }
        let changed = [1, 10].map {
            Scenario(input: .generated(contacts: $0), model: BenchModel.all[1], runtimeSet: true)
        }
        let ruled = [HealthRule.edgeHold, .outlier].flatMap { rule in
            [1, 10].map { Scenario(input: .generated(contacts: $0), model: BenchModel.all[1], rule: rule) }
        }
        return inputs.flatMap { input in BenchModel.all.map { Scenario(input: input, model: $0) } } + delivered + guarded
            + changed + ruled
    }()

    /// Builds the runner (reads the recordings for `.recordings`).
    public func makeRunner() throws -> StreamRunner {
        let stream: InputStream
        switch input {
        case .generated(let contacts): stream = GeneratedStream.make(contacts: contacts)
        case .recordings: stream = try RecordedStream.make().stream
        }
        return try StreamRunner(
            stream: stream, model: try model.build(), delivery: delivery,
            health: health ? .everyRule : rule?.settings, runtimeSet: runtimeSet)
    }
}
