import GestureCore

extension ConfigBuilder {
    /// The most modes a config declares (docs/LIMITS.md).
    static let maximumModes = 64

    /// The names of `[mode.NAME]`, checked, in file order: actions may name them (read
    /// before the gestures, whose actions switch to them).
    func readModeNames(_ reader: TableReader?) -> [String] {
        guard let reader else { return [] }
        var names: [String] = []
        for name in namesInFileOrder(reader) {
            let path = reader.path.appending(name)
            checkName(name, kind: "mode", path: path)
            if name == ModeSpec.none {
                sink.report(
                    path, "'\(ModeSpec.none)' means no mode (mode = \"\(ModeSpec.none)\") and cannot be declared", expected: "another name")
            } else if names.count == Self.maximumModes {
                sink.report(path, "more than \(Self.maximumModes) modes", expected: "at most \(Self.maximumModes) [mode.NAME] tables")
            } else {
                names.append(name)
            }
        }
        return names
    }

    /// `[mode.NAME]`: `gestures = { NAME = true/false }` and `views = { NAME = true/false }`,
    /// what the mode enables or disables while it is in force.
    func readModes(_ reader: TableReader?, names: [String], views: [ViewSpec], gestures: [GestureSpec]) -> [ModeSpec] {
        guard let reader else { return [] }
        var modes: [ModeSpec] = []
        for name in names {
            guard let mode = reader.table(name) else { continue }
            let gestureToggles = toggles(mode.table("gestures"), kind: "gesture", among: gestures.map(\.name))
            let viewToggles = toggles(mode.table("views"), kind: "view", among: views.map(\.name))
            mode.finish()
            if gestureToggles.isEmpty, viewToggles.isEmpty {
                sink.warn(
                    mode.path, "changes nothing: list what it turns on or off",
                    expected: "gestures = { NAME = true } or views = { NAME = false }")
            }
            modes.append(ModeSpec(name: name, gestures: gestureToggles, views: viewToggles))
        }
        // Names refused by `readModeNames` are read too, so their keys are not reported again.
        for name in reader.table.keys where !names.contains(name) { _ = reader.value(name) }
        reader.finish()
        return modes
    }

    /// `{ NAME = true, OTHER = false }` over the gestures or views `among` (by index).
    private func toggles(_ reader: TableReader?, kind: String, among known: [String]) -> [ModeSpec.Toggle] {
        guard let reader else { return [] }
        var toggles: [ModeSpec.Toggle] = []
        for name in namesInFileOrder(reader) {
            guard let enabled = reader.bool(name) else { continue }
            guard let index = known.firstIndex(of: name) else {
                sink.report(
                    reader.path.appending(name), "unknown \(kind) '\(Diagnostic.shown(name))'",
                    didYouMean: DidYouMean.suggestion(for: name, among: known))
                continue
            }
            toggles.append(ModeSpec.Toggle(index: index, enabled: enabled))
        }
        return toggles
    }
}
