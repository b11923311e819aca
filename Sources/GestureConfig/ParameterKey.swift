import GestureCore

/// One tunable of `[gesture.NAME]`: its config key and where it lands in its type's
/// parameter struct (`Parameters`). A type's table of these (`ConfigurableParameters.keys`)
/// drives reading, the unknown-key hints ("belongs to swipe") and the `gesturectl check`
/// report, so the keys a type accepts are exactly the fields its recognizer reads.
struct ParameterKey<Parameters> {
    enum Field {
        case count(WritableKeyPath<Parameters, Int>, minimum: Int)
        case length(WritableKeyPath<Parameters, Length>)
        case duration(WritableKeyPath<Parameters, Microseconds>)
        case angle(WritableKeyPath<Parameters, Double>)
        /// mm/s.
        case speed(WritableKeyPath<Parameters, Double>)
        case directions(WritableKeyPath<Parameters, Directions>)
        case edges(WritableKeyPath<Parameters, Edges>)
    }

    let name: String
    let field: Field

    init(_ name: String, _ field: Field) {
        self.name = name
        self.field = field
    }

    /// The same key for a struct holding `Parameters` at `path` (an edge pan's pan keys).
    func lifted<Outer>(to path: WritableKeyPath<Outer, Parameters>) -> ParameterKey<Outer> {
        let outer: ParameterKey<Outer>.Field =
            switch field {
            case .count(let keyPath, let minimum): .count(path.appending(path: keyPath), minimum: minimum)
            case .length(let keyPath): .length(path.appending(path: keyPath))
            case .duration(let keyPath): .duration(path.appending(path: keyPath))
            case .angle(let keyPath): .angle(path.appending(path: keyPath))
            case .speed(let keyPath): .speed(path.appending(path: keyPath))
            case .directions(let keyPath): .directions(path.appending(path: keyPath))
            case .edges(let keyPath): .edges(path.appending(path: keyPath))
            }
        return ParameterKey<Outer>(name, outer)
    }

    /// The value of this key in `parameters`, as the config would write it.
    func format(_ parameters: Parameters) -> String {
        switch field {
        case .count(let keyPath, _):
            let count = parameters[keyPath: keyPath]
            return count == Int.max ? "unlimited" : "\(count)"
        case .length(let keyPath): return Units.format(length: parameters[keyPath: keyPath])
        case .duration(let keyPath): return Units.format(duration: parameters[keyPath: keyPath])
        case .angle(let keyPath): return Units.format(angle: parameters[keyPath: keyPath])
        case .speed(let keyPath): return "\(Units.format(parameters[keyPath: keyPath]))mm/s"
        case .directions(let keyPath): return Self.formatSet(parameters[keyPath: keyPath], names: ParameterKeys.directionNames)
        case .edges(let keyPath): return Self.formatSet(parameters[keyPath: keyPath], names: ParameterKeys.edgeNames)
        }
    }

    private static func formatSet<S: OptionSet>(_ set: S, names: [(String, S)]) -> String where S.Element == S {
        "[" + names.filter { set.contains($0.1) }.map { "\"\($0.0)\"" }.joined(separator: ", ") + "]"
    }

    /// Reads this key from a gesture table into `parameters`; problems go to the reader's sink.
    func read(from reader: TableReader, into parameters: inout Parameters) {
        switch field {
        case .count(let keyPath, let minimum):
            let range = minimum...ParameterKeys.maximumCount
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
        case .directions(let keyPath):
            if let set = readSet(reader, names: ParameterKeys.directionNames) { parameters[keyPath: keyPath] = set }
        case .edges(let keyPath):
            if let set = readSet(reader, names: ParameterKeys.edgeNames) { parameters[keyPath: keyPath] = set }
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
                reader.sink.report(
                    path, "unknown name '\(entry)'", expected: expected,
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

/// One key of a gesture as `gesturectl check` prints it.
struct ParameterSetting: Equatable {
    var key: String
    /// As the config would write it.
    var value: String
    var isDefault: Bool
}

/// A gesture type's parameter struct as the config sees it: its keys in report order and
/// the rules across keys. `init()` is the type's defaults.
protocol ConfigurableParameters: Equatable {
    init()
    static var keys: [ParameterKey<Self>] { get }
    /// The struct as a gesture's parameters.
    var gestureParameters: GestureParameters { get }
    /// Reports what no single key can check (`reader` is the gesture's table).
    func check(_ reader: TableReader)
}

extension ConfigurableParameters {
    func check(_ reader: TableReader) {}

    /// The type's defaults with every key `reader` sets, checked.
    static func read(from reader: TableReader) -> GestureParameters {
        var parameters = Self()
        for key in keys { key.read(from: reader, into: &parameters) }
        parameters.check(reader)
        return parameters.gestureParameters
    }

    /// Every key with its value, marking those equal to the default.
    var settings: [ParameterSetting] {
        let defaults = Self()
        return Self.keys.map { key in
            let value = key.format(self)
            return ParameterSetting(key: key.name, value: value, isDefault: value == key.format(defaults))
        }
    }
}

extension TapParameters: ConfigurableParameters {
    static var keys: [ParameterKey<Self>] {
        [
            .init("taps", .count(\.taps, minimum: 0)),
            .init("touches", .count(\.touches, minimum: 1)),
            .init("max_movement", .length(\.maxMovement)),
            .init("tap_interval", .duration(\.tapInterval)),
            .init("tap_distance", .length(\.tapDistance)),
            .init("min_press", .duration(\.minPress)),
        ]
    }

    var gestureParameters: GestureParameters { .tap(self) }

    func check(_ reader: TableReader) {
        if taps < 1 {
            reader.sink.report(
                reader.path.appending("taps"), "a tap needs at least one tap",
                expected: "an integer from 1 to \(ParameterKeys.maximumCount)", found: "\(taps)")
        }
    }
}

extension LongPressParameters: ConfigurableParameters {
    static var keys: [ParameterKey<Self>] {
        [
            .init("taps", .count(\.taps, minimum: 0)),
            .init("touches", .count(\.touches, minimum: 1)),
            .init("min_duration", .duration(\.minimumPressDuration)),
            .init("allowable_movement", .length(\.allowableMovement)),
            .init("tap_interval", .duration(\.tapInterval)),
        ]
    }

    var gestureParameters: GestureParameters { .longPress(self) }
}

extension PanParameters: ConfigurableParameters {
    static var keys: [ParameterKey<Self>] {
        [
            .init("min_touches", .count(\.minimumTouches, minimum: 1)),
            .init("max_touches", .count(\.maximumTouches, minimum: 1)),
            .init("threshold", .length(\.threshold)),
        ]
    }

    var gestureParameters: GestureParameters { .pan(self) }

    func check(_ reader: TableReader) {
        if minimumTouches > maximumTouches {
            reader.sink.report(
                reader.path.appending("min_touches"), "min_touches is more than max_touches",
                expected: "min_touches <= max_touches", found: "\(minimumTouches) > \(maximumTouches)")
        }
    }
}

extension EdgePanParameters: ConfigurableParameters {
    static var keys: [ParameterKey<Self>] {
        PanParameters.keys.map { $0.lifted(to: \.pan) } + [
            .init("edges", .edges(\.edges)),
            .init("edge_margin", .length(\.edgeMargin)),
        ]
    }

    var gestureParameters: GestureParameters { .edgePan(self) }

    func check(_ reader: TableReader) {
        pan.check(reader)
        if edges.isEmpty, !reader.contains("edges") {
            reader.sink.report(
                reader.path.appending("edges"), "missing: an edge pan needs the edges it starts from",
                expected: "an array of \"top\", \"left\", \"bottom\", \"right\"")
        }
    }
}

extension SwipeParameters: ConfigurableParameters {
    static var keys: [ParameterKey<Self>] {
        [
            .init("touches", .count(\.touches, minimum: 1)),
            .init("directions", .directions(\.directions)),
            .init("min_distance", .length(\.minDistance)),
            .init("min_speed", .speed(\.minSpeed)),
            .init("max_duration", .duration(\.maxDuration)),
            .init("max_angle", .angle(\.maxAngle)),
            .init("jitter", .length(\.jitter)),
        ]
    }

    var gestureParameters: GestureParameters { .swipe(self) }

    func check(_ reader: TableReader) {
        if maxDuration == 0 {
            reader.sink.report(
                reader.path.appending("max_duration"), "must be more than 0",
                expected: Units.durationExpected, found: "\"0s\"")
        }
    }
}

extension PinchParameters: ConfigurableParameters {
    static var keys: [ParameterKey<Self>] { [.init("threshold", .length(\.threshold))] }
    var gestureParameters: GestureParameters { .pinch(self) }
}

extension RotationParameters: ConfigurableParameters {
    static var keys: [ParameterKey<Self>] { [.init("threshold", .angle(\.threshold))] }
    var gestureParameters: GestureParameters { .rotation(self) }
}

extension GestureParameters {
    /// The parameters of a gesture as their type's config table sees them.
    var configurable: any ConfigurableParameters {
        switch self {
        case .tap(let parameters): parameters
        case .longPress(let parameters): parameters
        case .pan(let parameters): parameters
        case .edgePan(let parameters): parameters
        case .swipe(let parameters): parameters
        case .pinch(let parameters): parameters
        case .rotation(let parameters): parameters
        }
    }
}

/// The key tables of every gesture type together, and the names sets are written with.
enum ParameterKeys {
    /// The parameter struct, and so the key table, of each gesture type (the struct its
    /// defaults are made of).
    static func table(for type: GestureType) -> any ConfigurableParameters.Type {
        Swift.type(of: GestureDefaults.parameters(for: type).configurable)
    }

    /// The key names of one gesture type, in report order.
    static func names(for type: GestureType) -> [String] {
        table(for: type).keyNames
    }

    /// The gesture types in the order hints name them.
    private static let types: [GestureType] = [.tap, .longPress, .pan, .edgePan, .swipe, .pinch, .rotation]

    /// Every parameter key name of any type.
    static var allNames: [String] {
        types.flatMap(names(for:))
    }

    /// The types a key belongs to, for "not a parameter of a tap (it belongs to swipe)".
    static func types(using name: String) -> [GestureType] {
        types.filter { names(for: $0).contains(name) }
    }

    /// The most taps or touches a key accepts: beyond any hand (or several).
    static let maximumCount = 20

    /// Screen edges by config name, in report order.
    static let edgeNames: [(String, Edges)] = [("top", .top), ("left", .left), ("bottom", .bottom), ("right", .right)]
    /// Swipe directions by config name, in report order.
    static let directionNames: [(String, Directions)] = Directions.all.map { ($0.name, $0.direction) }
}

extension ConfigurableParameters {
    static var keyNames: [String] { keys.map(\.name) }
}
