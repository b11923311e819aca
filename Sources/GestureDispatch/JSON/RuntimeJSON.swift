import GestureControl
import GestureCore
import JSONOutput
import TouchPipeline

extension EventJSON {
    /// The event-stream lines of a runtime update (docs/PROTOCOL.md, "`set`, `mode`,
    /// `reset`"): `{"t", ...}` per line of `RuntimeUpdate.streamLines`, each ending in a newline.
    public static func runtimeLines(_ update: RuntimeUpdate, origin: Microseconds, into writer: inout JSONWriter) {
        writer.reset()
        for line in update.streamLines(seconds: { Double($0 - origin) / 1_000_000 }) {
            guard case .object(let members) = line else { continue }
            writer.beginObject()
            writer.key("t")
            writer.fixed(Double(update.time - origin) / 1_000_000, decimals: 3)
            for (key, value) in members {
                writer.key(key)
                writer.value(value)
            }
            writer.endObject()
            writer.newline()
        }
    }
}
