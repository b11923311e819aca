import GestureCore

extension ConfigBuilder {
    /// The states `[idle.on.STATE]` takes.
    static let idleStates = ["sleep", "wake"]

    func readIdle(_ reader: TableReader?, devices: [DeviceRule]) -> IdleRule? {
        guard let reader else { return nil }
        if !devices.contains(where: { $0.passthrough && !$0.ignore }) {
            sink.warn(
                reader.path,
                "no [[device]] has passthrough = true: the touch that wakes the screen still reaches the application "
                    + "(gestured's gestures alone miss it)")
        }
        let after = reader.duration("after")
        var onSleep: [ActionSpec] = []
        var onWake: [ActionSpec] = []
        if let on = reader.table("on") {
            for key in on.table.keys {
                let path = on.path.appending(key)
                guard let value = on.value(key) else { continue }
                guard Self.idleStates.contains(key) else {
                    sink.report(
                        path, "unknown idle state '\(Diagnostic.shown(key))'",
                        expected: Self.idleStates.map { "on.\($0)" }.joined(separator: ", "),
                        didYouMean: DidYouMean.suggestion(for: key, among: Self.idleStates).map { "on.\($0)" })
                    continue
                }
                let specs = readActionList(value, path: path, for: .idle).filter { spec in
                    guard case .command = spec.kind else {
                        sink.report(path, "an idle action runs a command", expected: "command = \"...\"")
                        return false
                    }
                    return true
                }
                if key == "sleep" { onSleep = specs } else { onWake = specs }
            }
        }
        reader.finish()
        guard reader.contains("after") else {
            sink.report(reader.path.appending("after"), "missing", expected: "a duration: after = \"5min\"")
            return nil
        }
        guard let after else { return nil }
        guard after >= IdleRule.minimumAfter else {
            sink.report(
                reader.path.appending("after"), "must be at least 1s", expected: Units.durationExpected,
                found: "\"\(Units.format(duration: after))\"")
            return nil
        }
        return IdleRule(after: after, onSleep: onSleep, onWake: onWake)
    }
}
