import GestureCore

/// Names and types by index, for printing events (the engine's events carry indices only).
public struct GestureNames: Sendable {
    public var gestures: [String]
    public var types: [GestureType]
    public var views: [String]

    public init(gestures: [String], types: [GestureType], views: [String]) {
        self.gestures = gestures
        self.types = types
        self.views = views
    }

    public init(model: GestureModel) {
        self.init(gestures: model.gestures.map(\.name), types: model.gestures.map(\.type), views: model.views.map(\.name))
    }

    /// "?" for an index the model does not have (an event from before a reload).
    public func gesture(_ index: Int) -> String { gestures.indices.contains(index) ? gestures[index] : "?" }
    public func type(_ index: Int) -> GestureType? { types.indices.contains(index) ? types[index] : nil }
    public func view(_ index: Int) -> String { views.indices.contains(index) ? views[index] : "?" }
}
