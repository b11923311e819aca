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
    /// The touch health stage's rules for every device.
    public var health = HealthRules.defaults
    /// A runtime `set` (the first gesture off, then on again) before every frame
    /// (`StreamRunner.prepare`): the latency row is the frame right after a set.
    public var runtimeSet = false

    /// The health stage's settings a scenario runs with.
    public enum HealthRules: Sendable {
        /// Every rule off, the default stuck-contact release too: the stage's cost with nothing to do.
        case off
        /// What a panel gets without `[device.health]`: the stuck-contact release.
        case defaults
        /// `TouchHealthSettings.everyRule`.
        case every
        /// One rule on beside the defaults, with `everyRule`'s value.
        case one(HealthRule)

        var settings: TouchHealthSettings? {
            switch self {
            case .off:
                var none = TouchHealthSettings()
                none.stuckAfter = 0
                return none
            case .defaults: return nil
            case .every: return .everyRule
            case .one(let rule): return rule.settings
            }
        }

        var prefix: String {
            switch self {
            case .off: "nohealth-"
            case .defaults: ""
            case .every: "health-"
            case .one(let rule): "rule-\(rule.rawValue)-"
            }
        }
    }

    /// Names the benchmark: `generated-10c_32g-8v`, `recordings_256g-64v`,
    /// `delivery-generated-10c_32g-8v`, `health-generated-10c_32g-8v` (every rule on),
    /// `nohealth-generated-10c_32g-8v` (every rule off), `set-generated-10c_32g-8v`,
    /// `rule-edge-hold-generated-10c_32g-8v` (one rule on beside the defaults).
    public var name: String {
        let inputName: String
        switch input {
        case .generated(let contacts): inputName = "generated-\(contacts)c"
        case .recordings: inputName = "recordings"
        }
        return
            "\(delivery ? "delivery-" : "")\(health.prefix)\(runtimeSet ? "set-" : "")\(inputName)_\(model.gestures)g-\(model.views)v"
    }

    /// 1, 5 and 10 fingers, and the recordings, each against the three model sizes; then
    /// touch delivery, the health stage with every rule off and with every rule on (beside
    /// the defaults of the plain rows), and a `set` before every frame,
    /// with 1 and 10 fingers against the middle model; and so `edge_hold` and `outlier`, each
    /// alone beside the defaults.
    public static let all: [Scenario] = {
        let inputs: [Input] = [.generated(contacts: 1), .generated(contacts: 5), .generated(contacts: 10), .recordings]
        let delivered = [1, 10].map {
            Scenario(input: .generated(contacts: $0), model: BenchModel.all[1], delivery: true)
        }
        let guarded = [1, 10].flatMap { contacts in
            [HealthRules.off, .every].map { Scenario(input: .generated(contacts: contacts), model: BenchModel.all[1], health: $0) }
        }
        let changed = [1, 10].map {
            Scenario(input: .generated(contacts: $0), model: BenchModel.all[1], runtimeSet: true)
        }
        let ruled = [HealthRule.edgeHold, .outlier].flatMap { rule in
            [1, 10].map { Scenario(input: .generated(contacts: $0), model: BenchModel.all[1], health: .one(rule)) }
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
            stream: stream, model: try model.build(), delivery: delivery, health: health.settings, runtimeSet: runtimeSet)
    }
}
