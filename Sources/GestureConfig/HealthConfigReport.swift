import GestureCore

extension ConfigReport {
    /// A device rule's `[device.health]` as `check` prints it: every rule that is on with its
    /// values (defaults marked), and what it costs.
    static func healthLines(of s: TouchHealthSettings) -> [String] {
        let defaults = TouchHealthSettings()
        var settings: [(key: String, value: String, isDefault: Bool)] = []
        func add(_ key: String, _ value: String, isDefault: Bool = false) { settings.append((key, value, isDefault)) }
        for mask in s.masks { add("mask", "px " + Units.format(rect: mask)) }
        if s.minContact > 0 {
            add("min_contact", Units.format(duration: s.minContact))
            add("hold", s.holdNewContacts ? "true" : "false", isDefault: s.holdNewContacts == defaults.holdNewContacts)
        }
        add("still_radius", Units.format(length: s.stillRadius), isDefault: s.stillRadius == defaults.stillRadius)
        if let farApart = s.farApart {
            add("far_apart", Units.format(length: farApart))
            add("far_apart_within", Units.format(duration: s.farApartWithin), isDefault: s.farApartWithin == defaults.farApartWithin)
        }
        if let aligned = s.aligned { add("aligned", Units.format(length: aligned)) }
        if let spot = s.spot {
            let d = TouchHealthSettings.Spot(count: spot.count)
            add("spot_count", "\(spot.count)")
            add("spot_radius", Units.format(length: spot.radius), isDefault: spot.radius == d.radius)
            add("spot_within", Units.format(duration: spot.within), isDefault: spot.within == d.within)
            add("spot_release", Units.format(duration: spot.release), isDefault: spot.release == d.release)
        }
        if let jump = s.jump { add("jump", Units.format(length: jump)) }
        if let edgeHold = s.edgeHold { add("edge_hold", Units.format(length: edgeHold)) }
        add(
            "stuck_after", s.stuckAfter > 0 ? Units.format(duration: s.stuckAfter) : "0s (off)",
            isDefault: s.stuckAfter == defaults.stuckAfter)
        if let noisy = s.noisy {
            add("noisy_above", "\(noisy.perMinute)")
            add("noisy_quiet", Units.format(duration: noisy.quiet), isDefault: noisy.quiet == TouchHealthSettings.Noisy(perMinute: 1).quiet)
        }
        if s.silentAfter > 0 { add("silent_after", Units.format(duration: s.silentAfter)) }
        var lines = settings.map { "    health.\($0.key) = \($0.value)" + ($0.isDefault ? "  # default" : "") }
        if s.hold > 0 {
            lines.append("    health: every new touch is shown \(Units.format(duration: s.hold)) late (min_contact with hold = true)")
        } else if s.minContact > 0 {
            lines.append("    health: no hold: a ghost is shown, then cancelled")
        }
        return lines
    }
}
