/// What a reload changes, gesture by gesture. A gesture is *unchanged* when a gesture of
/// the same name exists in both models with the same definition once indices are read as
/// names: its type, parameters, enabled flag, predicates, the gestures its own spec relates
/// it to, and its view with every ancestor (so a moved or resized view changes its
/// gestures). Indices alone cannot decide this: adding one gesture shifts the indices of
/// all later ones. A relation declared by another gesture belongs to that gesture's spec:
/// removing it changes that gesture, and the one it named runs on without it.
///
/// Pure and model-only, so both the engine's `replaceModel` (which lets unchanged gestures
/// in flight continue and ends the others with `cancelled`) and the daemon's reload report
/// can use it.
public struct ModelDiff: Equatable, Sendable {
    /// For each gesture of the new model, the index of the same unchanged gesture in the old one.
    public var continuing: [Int?]
    public var unchanged: [String]
    /// In both models under the same name, defined differently.
    public var changed: [String]
    public var added: [String]
    public var removed: [String]

    public init(from old: GestureModel, to new: GestureModel) {
        continuing = []
        unchanged = []
        changed = []
        added = []
        for (index, spec) in new.gestures.enumerated() {
            guard let oldIndex = old.gestures.firstIndex(where: { $0.name == spec.name }) else {
                continuing.append(nil)
                added.append(spec.name)
                continue
            }
            if Definition(of: oldIndex, in: old) == Definition(of: index, in: new) {
                continuing.append(oldIndex)
                unchanged.append(spec.name)
            } else {
                continuing.append(nil)
                changed.append(spec.name)
            }
        }
        removed = old.gestures.map(\.name).filter { name in !new.gestures.contains { $0.name == name } }
    }

    /// One line for logs and `gesturectl reload`.
    public var summary: String {
        func part(_ label: String, _ names: [String]) -> String? {
            names.isEmpty ? nil : "\(label) " + names.joined(separator: ", ")
        }
        let parts = [part("changed", changed), part("added", added), part("removed", removed)].compactMap { $0 }
        return "\(unchanged.count) unchanged" + (parts.isEmpty ? "" : "; " + parts.joined(separator: "; "))
    }

    /// A gesture's definition with every index replaced by what it names.
    private struct Definition: Equatable {
        var type: GestureType
        var parameters: GestureParameters
        var enabled: Bool
        /// The gesture's view, then its ancestors up to the root.
        var viewChain: [ViewSpecByName]
        var simultaneousWith: Set<String>
        var requireToFail: Set<String>
        var requiredToFailBy: Set<String>
        var cannotPrevent: Set<String>
        var cannotBePreventedBy: Set<String>
        var shouldBegin: ShouldBegin
        var toolTypes: Set<ToolType>
        var hitViews: Set<String>
        var region: Rect?
        var devices: [String]

        init(of index: Int, in model: GestureModel) {
            let spec = model.gestures[index]
            func names(_ indices: [Int]) -> Set<String> { Set(indices.map { model.gestures[$0].name }) }
            type = spec.type
            parameters = spec.parameters
            enabled = spec.enabled
            viewChain = []
            var view: Int? = spec.view
            while let current = view {
                viewChain.append(ViewSpecByName(model.views[current]))
                view = model.views[current].parent
            }
            simultaneousWith = names(spec.simultaneousWith)
            requireToFail = names(spec.requireToFail)
            requiredToFailBy = names(spec.requiredToFailBy)
            cannotPrevent = names(spec.cannotPrevent)
            cannotBePreventedBy = names(spec.cannotBePreventedBy)
            shouldBegin = spec.shouldBegin
            toolTypes = spec.shouldReceiveTouch.toolTypes
            hitViews = Set(spec.shouldReceiveTouch.hitViews.map { model.views[$0].name })
            region = spec.shouldReceiveTouch.region
            devices = spec.shouldReceiveTouch.devices
        }
    }

    private struct ViewSpecByName: Equatable {
        var name: String
        var frame: Rect
        var enabled: Bool
        var hidden: Bool

        init(_ view: ViewSpec) {
            name = view.name
            frame = view.frame
            enabled = view.enabled
            hidden = view.hidden
        }
    }
}
