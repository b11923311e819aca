import GestureCore

extension ConfigBuilder {
    /// UIKit's touch-delivery properties, common to every gesture type: each key and its
    /// field of `DeliveryOptions`, read and reported (`gesturectl check`) from this table.
    static var touchDeliveryFields: [(key: String, field: WritableKeyPath<DeliveryOptions, Bool>)] {
        [
            ("cancels_touches", \.cancelsTouches), ("delays_touches_began", \.delaysTouchesBegan),
            ("delays_touches_ended", \.delaysTouchesEnded),
        ]
    }
    static var touchDeliveryKeys: [String] { touchDeliveryFields.map(\.key) }

    /// `[gesture.NAME]`s in file order, with their actions (indexed alike).
    func readGestures(_ reader: TableReader?, views: [ViewSpec], screen: Rect) -> ([GestureSpec], [GestureActions]) {
        guard let reader else { return ([], []) }
        let names = namesInFileOrder(reader)
        var gestures: [GestureSpec] = []
        var actions: [GestureActions] = []
        for (index, name) in names.enumerated() {
            checkName(name, kind: "gesture", path: reader.path.appending(name))
            let table = reader.table(name)
            let spec = table.flatMap { readGesture($0, name: name, index: index, names: names, views: views, screen: screen) }
            // A placeholder keeps indices aligned with `names` so references stay checkable.
            gestures.append(
                spec?.spec
                    ?? GestureSpec(
                        name: name, view: 0, parameters: GestureDefaults.parameters(for: .tap),
                        enabled: false))
            actions.append(spec?.actions ?? GestureActions())
        }
        return (gestures, actions)
    }

    private func readGesture(
        _ reader: TableReader, name: String, index: Int, names: [String], views: [ViewSpec],
        screen: Rect
    ) -> (spec: GestureSpec, actions: GestureActions)? {
        let typeNames = GestureType.allCases.map(\.rawValue)
        let typePath = reader.path.appending("type")
        var type: GestureType?
        if let typeName = reader.string("type") {
            type = GestureType(rawValue: typeName)
            if type == nil {
                sink.report(
                    typePath, "unknown gesture type '\(Diagnostic.shown(typeName))'",
                    expected: typeNames.joined(separator: ", "),
                    didYouMean: DidYouMean.suggestion(for: typeName, among: typeNames))
            }
        } else if !reader.contains("type") {
            sink.report(typePath, "missing", expected: "the gesture's type: " + typeNames.joined(separator: ", "))
        }

        var view = 0
        if let viewName = reader.string("view") {
            if let found = views.firstIndex(where: { $0.name == viewName }) {
                view = found
            } else {
                sink.report(
                    reader.path.appending("view"), "unknown view '\(Diagnostic.shown(viewName))'",
                    didYouMean: DidYouMean.suggestion(for: viewName, among: views.map(\.name)))
            }
        }
        let enabled = reader.bool("enabled") ?? true
        let simultaneous = readReferences(reader, key: "simultaneous_with", kind: "gesture", names: names, excluding: name)
        let requireToFail = readReferences(reader, key: "require_to_fail", kind: "gesture", names: names, excluding: name)
        let requiredBy = readReferences(reader, key: "required_to_fail_by", kind: "gesture", names: names, excluding: name)
        let cannotPrevent = readReferences(reader, key: "cannot_prevent", kind: "gesture", names: names, excluding: name)
        let cannotBePrevented = readReferences(
            reader, key: "cannot_be_prevented_by", kind: "gesture", names: names,
            excluding: name)
        let shouldBegin = reader.table("should_begin").map { readShouldBegin($0, screen: screen) } ?? ShouldBegin()
        let shouldReceive =
            reader.table("should_receive_touch")
            .map { readShouldReceiveTouch($0, views: views, screen: screen) } ?? ShouldReceiveTouch()
        var delivery = DeliveryOptions()
        for (key, field) in Self.touchDeliveryFields {
            if let value = reader.bool(key) { delivery[keyPath: field] = value }
        }

        guard let type else {
            // Without a type its parameters and actions cannot be checked: report only keys
            // that are wrong for every type.
            for key in ParameterKeys.allNames + ["on"] { _ = reader.value(key) }
            reader.finish()
            return nil
        }
        let parameters = ParameterKeys.table(for: type).read(from: reader)
        let actions = reader.table("on").map { readActions($0, type: type) } ?? GestureActions()
        reader.finish { key in
            let owners = ParameterKeys.types(using: key)
            guard !owners.isEmpty else { return nil }
            return "'\(key)' is not a parameter of a \(type) gesture (it belongs to "
                + owners.map(\.rawValue).joined(separator: ", ") + ")"
        }
        let spec = GestureSpec(
            name: name, view: view, parameters: parameters, enabled: enabled,
            simultaneousWith: simultaneous, requireToFail: requireToFail,
            requiredToFailBy: requiredBy, cannotPrevent: cannotPrevent,
            cannotBePreventedBy: cannotBePrevented, shouldBegin: shouldBegin,
            shouldReceiveTouch: shouldReceive, delivery: delivery)
        return (spec, actions)
    }

    /// `should_begin = { min_touches, max_touches, region, devices }`.
    private func readShouldBegin(_ reader: TableReader, screen: Rect) -> ShouldBegin {
        var predicate = ShouldBegin()
        let range = 1...ParameterKeys.maximumCount
        let expected = "an integer from 1 to \(ParameterKeys.maximumCount)"
        let minimum = reader.int("min_touches", in: range, expected: expected)
        let maximum = reader.int("max_touches", in: range, expected: expected)
        if minimum != nil || maximum != nil {
            let low = minimum ?? 1
            let high = maximum ?? Int.max
            if low <= high {
                predicate.touches = low...high
            } else {
                sink.report(
                    reader.path.appending("min_touches"), "min_touches is more than max_touches",
                    expected: "min_touches <= max_touches", found: "\(low) > \(high)")
            }
        }
        predicate.region = reader.table("region").flatMap { readRect($0, in: screen, parentName: "the screen") }
        predicate.devices = reader.strings("devices") ?? []
        reader.finish()
        return predicate
    }

    /// `should_receive_touch = { tool_types, views, region, devices }`.
    private func readShouldReceiveTouch(_ reader: TableReader, views: [ViewSpec], screen: Rect) -> ShouldReceiveTouch {
        var predicate = ShouldReceiveTouch()
        let toolNames = ToolType.allCases.map(\.description)
        for name in reader.strings("tool_types", expected: "an array of \"finger\", \"pen\", \"palm\"") ?? [] {
            if let tool = ToolType.allCases.first(where: { $0.description == name }) {
                predicate.toolTypes.insert(tool)
            } else {
                sink.report(
                    reader.path.appending("tool_types"), "unknown tool type '\(name)'",
                    expected: toolNames.joined(separator: ", "),
                    didYouMean: DidYouMean.suggestion(for: name, among: toolNames))
            }
        }
        predicate.hitViews = readReferences(reader, key: "views", kind: "view", names: views.map(\.name))
        predicate.region = reader.table("region").flatMap { readRect($0, in: screen, parentName: "the screen") }
        predicate.devices = reader.strings("devices") ?? []
        reader.finish()
        return predicate
    }
}
