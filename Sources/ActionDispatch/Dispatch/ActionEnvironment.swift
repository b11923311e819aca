import ConfigModel
import GestureCore
import JSONOutput

#if canImport(Glibc)
import Glibc
#endif

/// The environment of command actions: the daemon's own, then `[daemon] environment`, then
/// the event's `GESTURE_*` values (later names replace earlier ones).
struct ActionEnvironment {
    /// systemd's variables for the daemon itself; a child must not ping the watchdog.
    static let daemonOnly: Set<String> = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    private let base: [String]

    init(settings: DaemonSettings) {
        let configured = Set(settings.environment.map(\.name))
        var base: [String] = []
        var entry = environ
        while let cString = entry.pointee {
            let text = String(cString: cString)
            let name = String(text.prefix { $0 != "=" })
            if !name.hasPrefix("GESTURE_") && !configured.contains(name) && !ActionEnvironment.daemonOnly.contains(name) {
                base.append(text)
            }
            entry += 1
        }
        // The last entry of a repeated name wins, as in a shell; file order otherwise.
        var seen = Set<String>()
        let entries = settings.environment.reversed().filter { seen.insert($0.name).inserted }.reversed()
        base += entries.map { "\($0.name)=\($0.value)" }
        self.base = base
    }

    /// `GESTURE_NAME`, `GESTURE_TYPE`, `GESTURE_STATE`, `GESTURE_VIEW`, `GESTURE_X`,
    /// `GESTURE_Y`, `GESTURE_TOUCHES`, `GESTURE_TIME`, `GESTURE_DEVICE`, the per-type
    /// values (`GESTURE_TRANSLATION_X`, `GESTURE_SCALE`, `GESTURE_DIRECTION`, ...) and
    /// `GESTURE_DELAYED_FROM` when set, and `GESTURE_MODE`, the mode in force (`none`).
    func variables(for event: GestureEvent, names: GestureNames, origin: Microseconds, mode: String) -> [String] {
        var result = base
        result.append("GESTURE_MODE=" + mode)
        var writer = JSONWriter(capacity: 64)
        func add(_ name: String, _ field: EventField) {
            EventText.write(field, event, names, origin, into: &writer)
            result.append("GESTURE_" + name + "=" + String(decoding: writer.bytes, as: UTF8.self))
            writer.reset()
        }
        add("NAME", .gesture)
        add("TIME", .t)
        for field in [EventField.type, .state, .view, .x, .y, .touches, .device]
            + EventField.perType(names.type(event.gesture))
        {
            add(field.rawValue.uppercased(), field)
        }
        if event.delayedFrom != nil { add("DELAYED_FROM", .delayedFrom) }
        return result
    }

    /// The base environment and `GESTURE_` + each name (an idle action's `TIME` and `IDLE`).
    func variables(_ values: KeyValuePairs<String, String>) -> [String] {
        base + values.map { "GESTURE_" + $0.key + "=" + $0.value }
    }

    /// A health action's: `GESTURE_TIME`, `GESTURE_DEVICE`, `GESTURE_HEALTH`,
    /// `GESTURE_REASON`, `GESTURE_DEVICE_NAME`, `GESTURE_DEVICE_PATH`.
    func variables(for change: HealthChange, origin: Microseconds) -> [String] {
        var writer = JSONWriter(capacity: 64)
        return base
            + HealthField.allCases.map { field in
                writer.reset()
                field.write(change, origin: origin, into: &writer)
                return MessageTemplate.environmentName(for: field.rawValue) + "=" + String(decoding: writer.bytes, as: UTF8.self)
            }
    }
}
