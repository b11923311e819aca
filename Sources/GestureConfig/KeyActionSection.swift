import GestureCore

extension ConfigBuilder {
    /// `keys = "leftctrl+r"`, with `delay`; `hold = true` (on.began of a continuous
    /// gesture); or `step` with `back` (and `axis` for a pan) on.changed; `cooldown`.
    func readKeyAction(_ reader: TableReader, for owner: ActionOwner, state: GestureState?) -> ActionSpec? {
        let chord = reader.string("keys").flatMap { keyChord($0, path: reader.path.appending("keys")) }
        let cooldown = reader.duration("cooldown") ?? owner.defaultCooldown
        for key in ["command", "socket", "mode"] where reader.contains(key) {
            _ = reader.value(key)
            sink.report(reader.path.appending(key), "both 'keys' and '\(key)'", expected: Self.actionExpected)
        }
        guard case .gesture(let type) = owner, let state else {
            reader.finish()
            sink.report(
                reader.path.appending("keys"), "keys are sent from a gesture's action only",
                expected: "command = \"...\" or socket = \"/path\"")
            return nil
        }
        let mode = readKeyMode(reader, type: type, state: state)
        reader.finish()
        guard let chord, let mode else { return nil }
        return ActionSpec(kind: .keys(KeyAction(chord: chord, mode: mode)), cooldown: cooldown)
    }

    /// `hold`, `step` (with `back`, `axis`) or a press with its `delay`.
    private func readKeyMode(_ reader: TableReader, type: GestureType, state: GestureState) -> KeyAction.Mode? {
        let hold = reader.bool("hold") ?? false
        let delay = reader.duration("delay")
        if let delay, delay > Self.maximumKeyDelay {
            sink.report(reader.path.appending("delay"), "at most 1s: a key down longer is a hold", expected: "a duration such as \"20ms\"")
        }
        if hold {
            guard type.isContinuous, state == .began else {
                sink.report(
                    reader.path.appending("hold"), "a key is held from a continuous gesture's on.began to its end",
                    expected: "hold on on.began of a pan, pinch, rotation, long-press or edge-pan")
                return nil
            }
            for key in ["step", "back", "delay"] where reader.contains(key) {
                _ = reader.value(key)
                sink.report(reader.path.appending(key), "both 'hold' and '\(key)'")
            }
            return .hold
        }
        guard reader.contains("step") || reader.contains("back") else { return .press(delay: min(delay ?? 0, Self.maximumKeyDelay)) }
        if delay != nil { sink.report(reader.path.appending("delay"), "a step sends each key as a press, without 'delay'") }
        return readStep(reader, type: type, state: state)
    }

    /// `step` and `back` (and `axis` for pans): the measure per type.
    private func readStep(_ reader: TableReader, type: GestureType, state: GestureState) -> KeyAction.Mode? {
        let back = reader.string("back").flatMap { keyChord($0, path: reader.path.appending("back")) }
        let stepPath = reader.path.appending("step")
        var measure: StepMeasure?
        var size: Double?
        switch type {
        case .pinch:
            measure = .scale
            size = reader.read("step", expected: "a scale step such as 0.25") { TableReader.number($0) }
        case .rotation:
            measure = .rotation
            size = reader.angle("step")
        case .pan, .edgePan:
            size = reader.pixels("step")
            let axis = reader.string("axis") ?? "x"
            measure = StepMeasure(rawValue: axis)
            if measure == nil || axis == "scale" || axis == "rotation" {
                measure = nil
                sink.report(reader.path.appending("axis"), "unknown axis '\(Diagnostic.shown(axis))'", expected: "\"x\" or \"y\"")
            }
        case .tap, .swipe, .longPress:
            _ = reader.value("step")
            sink.report(stepPath, "a \(type) has nothing to step", expected: "step on a pinch, rotation, pan or edge-pan")
            return nil
        }
        guard state == .changed else {
            sink.report(stepPath, "steps are counted on.changed", expected: "step in [gesture.NAME.on.changed]")
            return nil
        }
        guard reader.contains("step") else {
            sink.report(reader.path, "'back' without 'step'", expected: "step = ... beside back")
            return nil
        }
        guard let measure, let size else { return nil }
        guard size > 0 else {
            sink.report(stepPath, "must be more than 0")
            return nil
        }
        guard let back else {
            if !reader.contains("back") {
                sink.report(reader.path, "a step action has no 'back'", expected: "back = \"KEY\": the key sent when it steps back")
            }
            return nil
        }
        return .step(measure, size: size, back: back)
    }

    /// `leftctrl+r`: names joined by `+`, each resolved by libevdev's table (`KeyNames`).
    func keyChord(_ text: String, path: ConfigKeyPath) -> [UInt16]? {
        let names = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        guard names.count <= KeyAction.maximumChord else {
            sink.report(path, "\(names.count) keys in one chord", expected: "at most \(KeyAction.maximumChord), joined by '+'")
            return nil
        }
        var codes: [UInt16] = []
        for name in names {
            guard !name.isEmpty else {
                sink.report(path, "an empty key name", expected: Self.keysExpected, found: "\"\(Diagnostic.shown(text))\"")
                return nil
            }
            guard let code = KeyNames.code(of: name) else {
                let button = name.uppercased().hasPrefix("BTN_")
                sink.report(
                    path,
                    button
                        ? "'\(Diagnostic.shown(name))' is a button: gestured sends keys only" : "unknown key '\(Diagnostic.shown(name))'",
                    expected: Self.keysExpected,
                    didYouMean: button ? nil : DidYouMean.suggestion(for: KeyNames.shortName(name), among: KeyNames.suggestions))
                return nil
            }
            guard !codes.contains(code) else {
                sink.report(path, "'\(Diagnostic.shown(name))' twice in one chord", expected: Self.keysExpected)
                return nil
            }
            codes.append(code)
        }
        return codes
    }

    static let keysExpected = "evdev key names joined by '+', such as \"f5\", \"KEY_F5\" or \"leftctrl+r\""

    /// A press's longest `delay` between down and up.
    static let maximumKeyDelay: Microseconds = 1_000_000
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
