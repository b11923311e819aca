import GestureCore

extension ConfigBuilder {
    /// The states a gesture type has actions for: `recognized` for discrete types,
    /// began/changed/ended/cancelled for continuous ones.
    static func actionStates(for type: GestureType) -> [GestureState] {
        type.isContinuous ? [.began, .changed, .ended, .cancelled] : [.recognized]
    }

    /// `[gesture.NAME.on.STATE]` (one action) or `[[gesture.NAME.on.STATE]]` (several).
    func readActions(_ reader: TableReader, type: GestureType) -> GestureActions {
        var actions = GestureActions()
        let allowed = Self.actionStates(for: type)
        for key in reader.table.keys {
            let path = reader.path.appending(key)
            guard let state = GestureState.allCases.first(where: { $0.description == key }), allowed.contains(state) else {
                _ = reader.value(key)
                reportState(key, path: path, type: type, allowed: allowed)
                continue
            }
            guard let value = reader.value(key) else { continue }
            let specs = readActionList(value, path: path, for: .gesture(type), paced: state == .changed)
            if !specs.isEmpty { actions.byState[state] = specs }
        }
        return actions
    }

    /// `[device.on.noisy]`, `[device.on.silent]`, `[device.on.ok]` (or `[[...]]` for several):
    /// what runs when a panel's health changes.
    func readHealthActions(_ reader: TableReader) -> HealthActions {
        var actions = HealthActions()
        let states = HealthState.allCases.map(\.description)
        for key in reader.table.keys {
            let path = reader.path.appending(key)
            guard let state = HealthState.allCases.first(where: { $0.description == key }) else {
                _ = reader.value(key)
                sink.report(
                    path, "unknown health state '\(Diagnostic.shown(key))'", expected: states.map { "on.\($0)" }.joined(separator: ", "),
                    didYouMean: DidYouMean.suggestion(for: key, among: states).map { "on.\($0)" })
                continue
            }
            guard let value = reader.value(key) else { continue }
            let specs = readActionList(value, path: path, for: .health)
            if !specs.isEmpty { actions.byState[state] = specs }
        }
        return actions
    }

    /// One action table, or an array of them; `paced`: `on.changed`'s, which take `frame_rate`.
    private func readActionList(_ value: TOMLValue, path: ConfigKeyPath, for owner: ActionOwner, paced: Bool = false) -> [ActionSpec] {
        if let table = value.table {
            return readAction(TableReader(table: table, path: path, sink: sink), for: owner, paced: paced).map { [$0] } ?? []
        }
        guard let array = value.array else {
            sink.report(
                path, "wrong type", expected: "an action table: [\(path)] with command = \"...\"", found: TableReader.render(value))
            return []
        }
        var specs: [ActionSpec] = []
        for (index, element) in array.enumerated() {
            guard let table = element.table else {
                sink.report(path.appending(index: index), "wrong type", expected: "an action table", found: TableReader.render(element))
                continue
            }
            if let spec = readAction(TableReader(table: table, path: path.appending(index: index), sink: sink), for: owner, paced: paced) {
                specs.append(spec)
            }
        }
        return specs
    }

    private func reportState(_ key: String, path: ConfigKeyPath, type: GestureType, allowed: [GestureState]) {
        let expected = allowed.map { "on.\($0)" }.joined(separator: ", ")
        if key == "recognized" {
            sink.report(
                path, "a \(type) gesture is continuous: it has no 'recognized' state", expected: expected,
                didYouMean: "on.began")
        } else if GestureState.allCases.contains(where: { $0.description == key }) {
            let kind = type.isContinuous ? "continuous" : "discrete"
            sink.report(path, "a \(type) gesture is \(kind): it has no '\(key)' state", expected: expected)
        } else {
            sink.report(
                path, "unknown state '\(Diagnostic.shown(key))'", expected: expected,
                didYouMean: DidYouMean.suggestion(for: key, among: allowed.map(\.description)).map { "on.\($0)" })
        }
    }

    /// `command = "..."`, or `socket = "/path"` with an optional `message` and `datagram`;
    /// `cooldown` for both, `timeout` for commands, `frame_rate` for both when `paced`; or
    /// `mode = "NAME"` (gestures only). A message names only the fields its owner fills.
    func readAction(_ reader: TableReader, for owner: ActionOwner, paced: Bool = false) -> ActionSpec? {
        if reader.contains("mode") {
            // The pipeline switches modes on gesture events; a panel's health is not one.
            guard case .gesture = owner else {
                _ = reader.value("mode")
                sink.report(
                    reader.path.appending("mode"), "a mode switch runs from a gesture's action only",
                    expected: "command = \"...\" or socket = \"/path\"")
                return nil
            }
            return readModeAction(reader)
        }
        let command = reader.string("command")
        let socket = absolutePath(reader, "socket")
        let messageText = reader.string("message")
        let datagram = reader.bool("datagram")
        let cooldown = reader.duration("cooldown") ?? owner.defaultCooldown
        let timeout = reader.duration("timeout")
        let frameRate = readActionFrameRate(reader, paced: paced)
        reader.finish()

        if reader.contains("command") == reader.contains("socket") {
            sink.report(
                reader.path, reader.contains("command") ? "both 'command' and 'socket'" : "no action",
                expected: Self.actionExpected)
            return nil
        }
        if let command {
            for key in ["message", "datagram"] where reader.contains(key) {
                sink.report(reader.path.appending(key), "only socket actions take '\(key)'")
            }
            for field in MessageTemplate.placeholders(inCommand: command, among: owner.fieldNames) {
                sink.report(
                    reader.path.appending("command"),
                    "commands do not expand {\(field)}: values are passed in environment variables, "
                        + "never spliced into the shell string",
                    expected: "\"$\(MessageTemplate.environmentName(for: field))\"", found: "\"{\(field)}\"")
            }
            if command.allSatisfy({ $0 == " " || $0 == "\t" }) {
                sink.report(reader.path.appending("command"), "empty command", expected: "a shell command")
                return nil
            }
            if let timeout, timeout == 0 {
                sink.report(
                    reader.path.appending("timeout"), "must be more than 0", expected: Units.durationExpected,
                    found: "\"0s\"")
            }
            return ActionSpec(kind: .command(command), cooldown: cooldown, timeout: timeout, frameRate: frameRate)
        }
        if timeout != nil {
            sink.report(reader.path.appending("timeout"), "only command actions take 'timeout'")
        }
        guard let socket else { return nil }
        var template: MessageTemplate?
        if let messageText {
            do {
                template = try MessageTemplate(parsing: messageText, among: owner.fieldNames)
            } catch {
                var didYouMean: String?
                if case .unknownField(_, let suggestion) = error { didYouMean = suggestion.map { "{\($0)}" } }
                sink.report(
                    reader.path.appending("message"), error.description,
                    expected: "placeholders among " + owner.fieldNames.map { "{\($0)}" }.joined(separator: " "),
                    didYouMean: didYouMean)
                return nil
            }
            guard case .gesture(let type) = owner else {
                return ActionSpec(
                    kind: .socket(path: socket, message: template, datagram: datagram ?? false), cooldown: cooldown,
                    frameRate: frameRate)
            }
            let filled = MessageTemplate.fieldNames(for: type)
            for case .field(let name) in template?.segments ?? [] where !filled.contains(name) {
                let owners = GestureType.allCases.filter { MessageTemplate.typeFieldNames(for: $0).contains(name) }
                sink.report(
                    reader.path.appending("message"),
                    "a \(type) gesture's events have no {\(name)} (\(owners.map(\.rawValue).joined(separator: ", ")) "
                        + "events do): it would be sent as an invented value",
                    expected: "placeholders of a \(type) gesture: " + filled.map { "{\($0)}" }.joined(separator: " "))
                return nil
            }
        }
        return ActionSpec(
            kind: .socket(path: socket, message: template, datagram: datagram ?? false), cooldown: cooldown, frameRate: frameRate)
    }

    /// An action's `frame_rate`: only `on.changed` actions run at a pace (the other states
    /// run once per gesture and are never coalesced).
    private func readActionFrameRate(_ reader: TableReader, paced: Bool) -> FrameRate? {
        guard reader.contains("frame_rate") else { return nil }
        guard paced else {
            _ = reader.value("frame_rate")
            sink.report(
                reader.path.appending("frame_rate"), "only on.changed actions run at a frame rate",
                expected: "frame_rate in an [gesture.NAME.on.changed] action")
            return nil
        }
        return readFrameRate(reader)
    }

    static let actionExpected = "exactly one of command = \"...\", socket = \"/path\" or mode = \"NAME\""

    /// `mode = "NAME"` (or `"none"`) with an optional `for = "60s"`: a mode switch.
    private func readModeAction(_ reader: TableReader) -> ActionSpec? {
        let name = reader.string("mode")
        let duration = reader.duration("for")
        for key in ["command", "socket"] where reader.contains(key) {
            _ = reader.value(key)
            sink.report(reader.path.appending(key), "both 'mode' and '\(key)'", expected: Self.actionExpected)
        }
        reader.finish()
        guard let name else { return nil }
        let mode = name == ModeSpec.none ? nil : name
        if let mode, !modeNames.contains(mode) {
            sink.report(
                reader.path.appending("mode"), "unknown mode '\(Diagnostic.shown(mode))'",
                expected: modeNames.isEmpty
                    ? "a [mode.NAME] declared in the config" : "one of \(modeNames.joined(separator: ", ")) or \"\(ModeSpec.none)\"",
                didYouMean: DidYouMean.suggestion(for: mode, among: modeNames))
            return nil
        }
        if let duration, duration == 0 || mode == nil {
            sink.report(
                reader.path.appending("for"), mode == nil ? "'for' needs a mode to end" : "must be more than 0",
                expected: Units.durationExpected)
            return nil
        }
        return ActionSpec(kind: .mode(mode, duration: duration))
    }
}
