import ActionDispatch
// A socket message template: parsed as the config parses it, compiled as the dispatcher
// compiles it, and rendered for an event of every gesture type.
import FuzzSupport
import GestureConfig
import GestureCore
import JSONOutput
import TouchInput

let names = GestureNames(
    gestures: GestureType.allCases.map { "g-\($0)" }, types: Array(GestureType.allCases),
    views: ["screen", "v"])
var writer = JSONWriter()

runFuzzer { input in
    guard let template = try? MessageTemplate(parsing: input.text),
        let compiled = try? CompiledTemplate(template)
    else { return }
    for gesture in names.gestures.indices {
        let event = GestureEvent(
            time: 1_234_567, gesture: gesture, view: 1, state: .recognized, device: DeviceID(0),
            x: 12.5, y: -3, touches: 2)
        writer.reset()
        compiled.render(event, names: names, origin: 1_000, into: &writer)
    }
}
