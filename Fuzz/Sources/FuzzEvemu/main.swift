// evemu text (a description and its events) -> EvemuRecording -> a normalizer for its
// device fed every event: a file that parses must be one the input layer can take.
import FuzzSupport
import GestureCore
import TouchInput

runFuzzer { input in
    guard let recording = try? EvemuRecording.parse(input.text, path: "fuzz.evemu") else { return }
    _ = recording.serialized()
    guard let normalizer = TouchNormalizer(device: DeviceID(0), info: recording.info) else { return }
    for event in recording.events { _ = normalizer.feed(event) }
    _ = normalizer.cancelAll(at: recording.events.last?.time ?? 0)
}
