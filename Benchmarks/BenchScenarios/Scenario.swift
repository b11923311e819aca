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

    /// Names the benchmark: `generated-10c_32g-8v`, `recordings_256g-64v`.
    public var name: String {
        let inputName: String
        switch input {
        case .generated(let contacts): inputName = "generated-\(contacts)c"
        case .recordings: inputName = "recordings"
        }
        return "\(inputName)_\(model.gestures)g-\(model.views)v"
    }

    /// 1, 5 and 10 fingers, and the recordings, each against the three model sizes.
    public static let all: [Scenario] = {
        let inputs: [Input] = [.generated(contacts: 1), .generated(contacts: 5), .generated(contacts: 10), .recordings]
        return inputs.flatMap { input in BenchModel.all.map { Scenario(input: input, model: $0) } }
    }()

    /// Builds the runner (reads the recordings for `.recordings`).
    public func makeRunner() throws -> StreamRunner {
        let stream: InputStream
        switch input {
        case .generated(let contacts): stream = GeneratedStream.make(contacts: contacts)
        case .recordings: stream = try RecordedStream.make().stream
        }
        return StreamRunner(stream: stream, model: try model.build())
    }
}
