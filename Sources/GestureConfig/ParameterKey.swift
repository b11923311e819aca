import GestureCore

/// One tunable of `[gesture.NAME]`: its config key, the gesture types it applies to and
/// where it lands in `GestureParameters`. The one table drives reading, the unknown-key
/// hints ("belongs to swipe") and the `gesturectl check` report.
struct ParameterKey {
    enum Field {
        case count(WritableKeyPath<GestureParameters, Int>, minimum: Int)
        case length(WritableKeyPath<GestureParameters, Length>)
        case duration(WritableKeyPath<GestureParameters, Microseconds>)
        case angle(WritableKeyPath<GestureParameters, Double>)
        /// mm/s.
        case speed(WritableKeyPath<GestureParameters, Double>)
        case directions
        case edges
    }

    let name: String
    let types: [GestureType]
    let field: Field

    /// Every parameter key, in the order the report prints them. One name may appear once
    /// per type (`threshold` is a length for pan and pinch, an angle for rotation).
    static var all: [ParameterKey] {
        let pans: [GestureType] = [.pan, .edgePan]
        return [
            ParameterKey(name: "taps", types: [.tap, .longPress], field: .count(\.taps, minimum: 0)),
            ParameterKey(name: "touches", types: [.tap, .longPress, .swipe], field: .count(\.touches, minimum: 1)),
            ParameterKey(name: "max_movement", types: [.tap], field: .length(\.tapMaxMovement)),
            ParameterKey(name: "tap_interval", types: [.tap], field: .duration(\.tapInterval)),
            ParameterKey(name: "tap_distance", types: [.tap], field: .length(\.tapDistance)),
            ParameterKey(name: "min_press", types: [.tap], field: .duration(\.minPress)),
            ParameterKey(name: "min_duration", types: [.longPress], field: .duration(\.minimumPressDuration)),
            ParameterKey(name: "allowable_movement", types: [.longPress], field: .length(\.allowableMovement)),
            ParameterKey(name: "min_touches", types: pans, field: .count(\.minimumTouches, minimum: 1)),
            ParameterKey(name: "max_touches", types: pans, field: .count(\.maximumTouches, minimum: 1)),
            ParameterKey(name: "threshold", types: pans, field: .length(\.panThreshold)),
            ParameterKey(name: "edges", types: [.edgePan], field: .edges),
            ParameterKey(name: "edge_margin", types: [.edgePan], field: .length(\.edgeMargin)),
            ParameterKey(name: "directions", types: [.swipe], field: .directions),
            ParameterKey(name: "min_distance", types: [.swipe], field: .length(\.swipeDistance)),
            ParameterKey(name: "min_speed", types: [.swipe], field: .speed(\.swipeMinimumSpeed)),
            ParameterKey(name: "max_duration", types: [.swipe], field: .duration(\.swipeDeadline)),
            ParameterKey(name: "max_angle", types: [.swipe], field: .angle(\.swipeMaxAngle)),
            ParameterKey(name: "threshold", types: [.pinch], field: .length(\.pinchThreshold)),
            ParameterKey(name: "threshold", types: [.rotation], field: .angle(\.rotationThreshold)),
        ]
    }

    /// The keys of one gesture type, in report order.
    static func keys(for type: GestureType) -> [ParameterKey] {
        all.filter { $0.types.contains(type) }
    }

    /// The types a key belongs to, for "not a parameter of a tap (it belongs to swipe)".
    static func types(using name: String) -> [GestureType] {
        all.filter { $0.name == name }.flatMap(\.types)
    }

    /// The most taps or touches a key accepts: beyond any hand (or several).
    static let maximumCount = 20

    /// Screen edges by config name, in report order.
    static let edgeNames: [(String, Edges)] = [("top", .top), ("left", .left), ("bottom", .bottom), ("right", .right)]
    /// Swipe directions by config name, in report order.
    static let directionNames: [(String, Directions)] = [("right", .right), ("left", .left), ("up", .up), ("down", .down)]

    /// The value of this key in `parameters`, as the config would write it.
    func format(_ parameters: GestureParameters) -> String {
        switch field {
        case .count(let keyPath, _):
            let count = parameters[keyPath: keyPath]
            return count == Int.max ? "unlimited" : "\(count)"
        case .length(let keyPath): return Units.format(length: parameters[keyPath: keyPath])
        case .duration(let keyPath): return Units.format(duration: parameters[keyPath: keyPath])
        case .angle(let keyPath): return Units.format(angle: parameters[keyPath: keyPath])
        case .speed(let keyPath): return "\(Units.format(parameters[keyPath: keyPath]))mm/s"
        case .directions:
            let names = Self.directionNames.filter { parameters.directions.contains($0.1) }.map { "\"\($0.0)\"" }
            return "[\(names.joined(separator: ", "))]"
        case .edges:
            let names = Self.edgeNames.filter { parameters.edges.contains($0.1) }.map { "\"\($0.0)\"" }
            return "[\(names.joined(separator: ", "))]"
        }
    }

    /// Reads this key from a gesture table into `parameters`; problems go to the reader's sink.
    func read(from reader: TableReader, into parameters: inout GestureParameters) {
        switch field {
        case .count(let keyPath, let minimum):
            let range = minimum...Self.maximumCount
            if let count = reader.int(name, in: range, expected: "an integer from \(range.lowerBound) to \(range.upperBound)") {
                parameters[keyPath: keyPath] = count
            }
        case .length(let keyPath):
            if let length = reader.length(name) { parameters[keyPath: keyPath] = length }
        case .duration(let keyPath):
            if let duration = reader.duration(name) { parameters[keyPath: keyPath] = duration }
        case .angle(let keyPath):
            if let angle = reader.angle(name) { parameters[keyPath: keyPath] = angle }
        case .speed(let keyPath):
            if let speed = reader.speed(name) { parameters[keyPath: keyPath] = speed }
        case .directions:
            if let set = readSet(reader, names: Self.directionNames) { parameters.directions = set }
        case .edges:
            if let set = readSet(reader, names: Self.edgeNames) { parameters.edges = set }
        }
    }

    /// An array of names (or one name) into an option set; unknown and repeated names are errors.
    private func readSet<S: OptionSet>(_ reader: TableReader, names: [(String, S)]) -> S? where S.Element == S {
        let choices = names.map(\.0)
        let expected = "an array of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let list = reader.strings(name, expected: expected) else { return nil }
        let path = reader.path.appending(name)
        guard !list.isEmpty else {
            reader.sink.report(path, "must name at least one", expected: expected, found: "[]")
            return nil
        }
        var set = S()
        var seen: [String] = []
        for entry in list {
            guard let (_, member) = names.first(where: { $0.0 == entry }) else {
                reader.sink.report(path, "unknown name '\(entry)'", expected: expected,
                                   didYouMean: DidYouMean.suggestion(for: entry, among: choices))
                return nil
            }
            if seen.contains(entry) {
                reader.sink.report(path, "'\(entry)' is listed twice")
            }
            seen.append(entry)
            set.insert(member)
        }
        return set
    }
}
