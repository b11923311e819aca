import GestureCore

extension ConfigBuilder {
    /// `[device.health]`: the health stage's rules for the touchscreens a rule matches. Every
    /// rule is off unless set, but the stuck-contact release (`TouchHealthSettings`).
    func readHealth(_ reader: TableReader?, screen: Rect) -> TouchHealthSettings {
        var s = TouchHealthSettings()
        guard let reader else { return s }
        if let masks = reader.read("mask", expected: "an array of frames: [{ x, y, width, height }]", { $0.array }) {
            for (index, element) in masks.enumerated() {
                let path = reader.path.appending("mask").appending(index: index)
                guard let table = element.table else {
                    sink.report(path, "wrong type", expected: "a frame { x, y, width, height }", found: TableReader.render(element))
                    continue
                }
                if let rect = readRect(TableReader(table: table, path: path, sink: sink), in: screen, parentName: "the screen") {
                    s.masks.append(rect)
                }
            }
        }
        s.minContact = reader.duration("min_contact") ?? s.minContact
        s.holdNewContacts = reader.bool("hold") ?? s.holdNewContacts
        s.stillRadius = reader.length("still_radius") ?? s.stillRadius
        s.farApart = reader.length("far_apart")
        s.farApartWithin = reader.duration("far_apart_within") ?? s.farApartWithin
        s.aligned = reader.length("aligned")
        s.jump = reader.length("jump")
        s.edgeHold = reader.length("edge_hold")
        s.stuckAfter = reader.duration("stuck_after") ?? s.stuckAfter
        s.silentAfter = reader.duration("silent_after") ?? s.silentAfter
        // Every key is read (and checked) whether its rule is on or not.
        let spotCount = reader.int("spot_count", in: 2...1000, expected: "contacts, 2 to 1000")
        let spotRadius = reader.length("spot_radius")
        let spotWithin = reader.duration("spot_within")
        let spotRelease = reader.duration("spot_release")
        if let spotCount {
            var spot = TouchHealthSettings.Spot(count: spotCount)
            spot.radius = spotRadius ?? spot.radius
            spot.within = spotWithin ?? spot.within
            spot.release = spotRelease ?? spot.release
            s.spot = spot
        }
        let noisyAbove = reader.int("noisy_above", in: 1...10_000, expected: "filtered contacts a minute, 1 to 10000")
        let noisyQuiet = reader.duration("noisy_quiet")
        if let noisyAbove {
            var noisy = TouchHealthSettings.Noisy(perMinute: noisyAbove)
            noisy.quiet = noisyQuiet ?? noisy.quiet
            s.noisy = noisy
        }
        // A key of a rule left unset would silently do nothing.
        let needs = [
            ("hold", "min_contact"), ("far_apart_within", "far_apart"), ("spot_radius", "spot_count"),
            ("spot_within", "spot_count"), ("spot_release", "spot_count"), ("noisy_quiet", "noisy_above"),
        ]
        for (key, rule) in needs where reader.contains(key) && !reader.contains(rule) {
            sink.report(reader.path.appending(key), "has no effect without \(rule)", expected: "\(rule) in the same [device.health]")
        }
        reader.finish()
        return s
    }
}
