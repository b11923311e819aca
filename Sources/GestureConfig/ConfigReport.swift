import GestureCore

/// The text of `gesturectl check`: the screen, views, devices and every gesture with all
/// its resolved parameters, defaults included and marked.
public enum ConfigReport {
    public static func text(of configuration: Configuration) -> String {
        let model = configuration.model
        var lines: [String] = []
        lines.append("screen: \(Units.format(model.screen.width))x\(Units.format(model.screen.height)) px")
        lines.append("views:")
        for view in model.views {
            var line = "  \(view.name): \(rect(view.frame))"
            if let parent = view.parent { line += " in \(model.views[parent].name)" }
            if !view.enabled { line += ", disabled" }
            if view.hidden { line += ", hidden" }
            lines.append(line)
        }
        lines.append("devices:" + (configuration.devices.isEmpty ? " (no rules: every touchscreen covers the screen)" : ""))
        for (index, rule) in configuration.devices.enumerated() {
            lines.append("  device[\(index)]: \(describe(rule.match)) -> \(describe(rule.mapping))")
            lines.append(contentsOf: healthLines(of: rule.health))
            for state in HealthState.allCases {
                for action in rule.healthActions.byState[state] ?? [] {
                    lines.append("    on.\(state): \(describe(action, line: "health change's"))")
                }
            }
        }
        lines.append("gestures:")
        for (index, spec) in model.gestures.enumerated() {
            lines.append(contentsOf: describe(spec, in: model, actions: configuration.actions[index]))
        }
        lines.append(contentsOf: deliveryLines(of: configuration))
        lines.append(contentsOf: keyboardLines(of: configuration))
        if let idle = configuration.idle {
            lines.append("idle: after \(Units.format(duration: idle.after)) without a touch; the touch that wakes the screen is consumed")
            for action in idle.onSleep { lines.append("  on.sleep: \(describe(action))") }
            for action in idle.onWake { lines.append("  on.wake: \(describe(action))") }
        }
        return lines.joined(separator: "\n")
    }

    /// The keys the config's actions send, through which device, and where that was run.
    private static func keyboardLines(of configuration: Configuration) -> [String] {
        let codes = Set(configuration.actions.flatMap { $0.byState.values.joined() }.flatMap(\.keyCodes)).sorted()
        guard !codes.isEmpty else { return [] }
        return [
            "keyboard: \"\(KeyAction.keyboardName)\" (uinput) sends \(codes.map(KeyNames.name(of:)).joined(separator: " "))",
            "  key codes: the compositor's layout makes them characters (docs/CONFIG.md, \"Key actions\"); "
                + "run under \(KeyAction.compositorsRun) in the project's real-kernel tests",
        ]
    }

    private static func describe(_ spec: GestureSpec, in model: GestureModel, actions: GestureActions) -> [String] {
        var lines = [
            "  \(spec.name): \(spec.type) on view \(model.views[spec.view].name)"
                + (spec.enabled ? "" : " (disabled)")
        ]
        for setting in spec.parameters.configurable.settings {
            lines.append("    \(setting.key) = \(setting.value)" + (setting.isDefault ? "  # default" : ""))
        }
        for (key, field) in ConfigBuilder.touchDeliveryFields {
            let value = spec.delivery[keyPath: field]
            lines.append("    \(key) = \(value)" + (value == DeliveryOptions()[keyPath: field] ? "  # default" : ""))
        }
        let relations: [(String, [Int])] = [
            ("simultaneous_with", spec.simultaneousWith), ("require_to_fail", spec.requireToFail),
            ("required_to_fail_by", spec.requiredToFailBy), ("cannot_prevent", spec.cannotPrevent),
            ("cannot_be_prevented_by", spec.cannotBePreventedBy),
        ]
        for (key, indices) in relations where !indices.isEmpty {
            lines.append("    \(key) = [\(indices.map { "\"\(model.gestures[$0].name)\"" }.joined(separator: ", "))]")
        }
        if let touches = spec.shouldBegin.touches {
            let high = touches.upperBound == Int.max ? "unlimited" : "\(touches.upperBound)"
            lines.append("    should_begin: \(touches.lowerBound) to \(high) touches")
        }
        if let region = spec.shouldBegin.region { lines.append("    should_begin: centroid in \(rect(region))") }
        if !spec.shouldBegin.devices.isEmpty { lines.append("    should_begin: devices \(spec.shouldBegin.devices)") }
        let receive = spec.shouldReceiveTouch
        if !receive.toolTypes.isEmpty {
            let tools = ToolType.allCases.filter(receive.toolTypes.contains).map(\.description)
            lines.append("    should_receive_touch: tool types \(tools.joined(separator: ", "))")
        }
        if !receive.hitViews.isEmpty {
            lines.append("    should_receive_touch: views \(receive.hitViews.map { model.views[$0].name }.joined(separator: ", "))")
        }
        if let region = receive.region { lines.append("    should_receive_touch: begins in \(rect(region))") }
        if !receive.devices.isEmpty { lines.append("    should_receive_touch: devices \(receive.devices)") }
        for state in GestureState.allCases {
            for action in actions.byState[state] ?? [] {
                lines.append("    on.\(state): \(describe(action))")
            }
        }
        return lines
    }

    /// `line`: what a socket action without a message sends.
    private static func describe(_ action: ActionSpec, line: String = "event's") -> String {
        var text: String
        switch action.kind {
        case .command(let command):
            text = "command \(command)"
            if let timeout = action.timeout { text += " (timeout \(Units.format(duration: timeout)))" }
        case .socket(let path, let message, let datagram):
            text = "\(datagram ? "datagram" : "stream") to \(path): " + (message.map(template) ?? "the \(line) JSON line")
        case .mode(let name, let duration):
            text = "mode \(name ?? ModeSpec.none)" + (duration.map { " for \(Units.format(duration: $0))" } ?? "")
        case .keys(let keys):
            text = "keys \(KeyAction.text(of: keys.chord))"
            switch keys.mode {
            case .press(let delay): if delay > 0 { text += " (up after \(Units.format(duration: delay)))" }
            case .hold: text += " held until the gesture ends"
            case .step(let measure, let size, let back):
                let step =
                    switch measure {
                    case .scale: "\(Units.format(size)) of scale"
                    case .translationX, .translationY: "\(Units.format(size))px along \(measure.rawValue)"
                    case .rotation: "\(Units.format(angle: size)) of rotation"
                    }
                text += " each step of \(step) up, \(KeyAction.text(of: back)) each step down"
            }
        }
        if action.cooldown > 0 { text += ", cooldown \(Units.format(duration: action.cooldown))" }
        return text
    }

    private static func template(_ message: MessageTemplate) -> String {
        message.segments.map { segment in
            switch segment {
            case .text(let text): text.replacing("{", with: "{{").replacing("}", with: "}}")
            case .field(let name): "{\(name)}"
            }
        }.joined()
    }

    private static func describe(_ match: DeviceMatch) -> String {
        var parts: [String] = []
        if let name = match.name { parts.append("name \"\(name)\"") }
        if let vendor = match.vendor { parts.append("vendor \(hex(vendor))") }
        if let product = match.product { parts.append("product \(hex(product))") }
        if let path = match.path { parts.append("path \(path)") }
        if let property = match.property { parts.append("\(property.name)=\(property.value)") }
        return parts.isEmpty ? "every touchscreen" : parts.joined(separator: ", ")
    }

    private static func describe(_ mapping: DeviceMapping) -> String {
        var parts = ["rotation \(mapping.rotation)"]
        if mapping.flipX { parts.append("flip_x") }
        if mapping.flipY { parts.append("flip_y") }
        if mapping.calibration != DeviceMapping.identity.calibration {
            parts.append("calibration [\(mapping.calibration.map { Units.format($0) }.joined(separator: ", "))]")
        }
        parts.append("output " + (mapping.output.map { rect($0) } ?? "whole screen"))
        if let size = mapping.sizeMM { parts.append("size \(Units.format(size.width))x\(Units.format(size.height)) mm") }
        return parts.joined(separator: ", ")
    }

    private static func hex(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    private static func rect(_ r: Rect) -> String { "px " + Units.format(rect: r) }
}
