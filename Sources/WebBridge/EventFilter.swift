import GestureControl

/// Which lines of the event stream a page gets (`/events?gesture=a,b&view=map`): a line
/// with a top-level `gesture` (or `view`) member passes only when it names one listed;
/// lines without one (mode, changed, health, stopping) always pass, so a page keeps
/// seeing the runtime state it depends on.
public struct EventFilter: Sendable, Equatable {
    public var gestures: Set<String>
    public var views: Set<String>

    public init(gestures: [String] = [], views: [String] = []) {
        self.gestures = Set(gestures)
        self.views = Set(views)
    }

    public var passesEverything: Bool { gestures.isEmpty && views.isEmpty }

    public func passes(_ line: EventLine) -> Bool {
        if !gestures.isEmpty, let name = line["gesture"]?.stringValue, !gestures.contains(name) { return false }
        if !views.isEmpty, let name = line["view"]?.stringValue, !views.contains(name) { return false }
        return true
    }
}
