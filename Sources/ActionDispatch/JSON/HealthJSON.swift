import GestureCore
import JSONOutput

extension EventJSON {
    /// One contact the health stage filtered, as `replay` prints it:
    /// `{"t","filtered","device","rule","shown","x","y"}` (`filtered`: the contact's id as the
    /// panel's normalizer gave it; `shown`: whether it had been shown and was cancelled).
    public static func filteredLine(_ f: FilteredContact, device: DeviceID, origin: Microseconds, into writer: inout JSONWriter) {
        writer.reset()
        writer.beginObject()
        writer.key("t")
        writer.fixed(Double(f.time - origin) / 1_000_000, decimals: 3)
        writer.key("filtered")
        writer.int(Int64(f.id))
        writer.key("device")
        writer.int(Int64(device.rawValue))
        writer.key("rule")
        writer.string(f.rule.description)
        writer.key("shown")
        writer.bool(f.wasShown)
        writer.key("x")
        writer.fixed(f.x, decimals: 1)
        writer.key("y")
        writer.fixed(f.y, decimals: 1)
        writer.endObject()
        writer.newline()
    }

    /// A panel's health changed, as subscribers get it: `{"t","device","health","reason"}`
    /// (`health`: `ok`, `noisy` or `silent`; `reason`: the numbers that decided it).
    public static func healthLine(
        device: DeviceID, state: HealthState, reason: HealthReason, time: Microseconds, origin: Microseconds,
        into writer: inout JSONWriter
    ) {
        writer.reset()
        writer.beginObject()
        writer.key("t")
        writer.fixed(Double(time - origin) / 1_000_000, decimals: 3)
        writer.key("device")
        writer.int(Int64(device.rawValue))
        writer.key("health")
        writer.string(state.description)
        writer.key("reason")
        writer.string(reason.description)
        writer.endObject()
        writer.newline()
    }
}
