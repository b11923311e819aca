import GestureControl
import GestureCore

/// What a runtime update looks like on the socket (docs/PROTOCOL.md): the reply to the
/// command that made it, and the event stream's lines. `seconds` turns engine time into the
/// stream's `t` clock.
extension RuntimeUpdate {
    /// The reply's `ok`: `{"changed": [...], "mode": {...}, "undone": [...], "dropped": [...]}`,
    /// `changed` always, the others when there is something to say.
    public func reply(seconds: (Microseconds) -> Double) -> JSONValue {
        var members: [(String, JSONValue)] = [("changed", .array(layout.map(\.json)))]
        if let mode { members.append(("mode", .object(mode.members(seconds: seconds)))) }
        if !removed.isEmpty { members.append(("undone", .array(removed.map { .object([$0.target.member]) }))) }
        if !dropped.isEmpty { members.append(("dropped", .array(dropped.map { .object([$0.target.member]) }))) }
        return .object(members)
    }

    /// One object per event-stream line, without its `t` (the writer puts it first): the
    /// mode change `{"mode", "from", "until", "cause", "by"}`, then each layout change
    /// `{"changed": {"gesture" or "view", "enabled", "frame"}, "by"}`, then each change a reload
    /// dropped `{"dropped": {"gesture" or "view"}, "cause": "reload"}`.
    public func streamLines(seconds: (Microseconds) -> Double) -> [JSONValue] {
        var lines: [JSONValue] = []
        let by: [(String, JSONValue)] = owner.map { [("by", .string($0.description))] } ?? []
        if let mode { lines.append(.object(mode.members(seconds: seconds))) }
        for change in layout { lines.append(.object([("changed", change.json)] + by)) }
        for change in dropped { lines.append(.object([("dropped", .object([change.target.member])), ("cause", .string("reload"))])) }
        return lines
    }
}

extension ModeChange {
    /// `mode` (now, null for none), `from`, `until` (when it ends by itself), `cause`
    /// (`switched`, `expired`, `disconnected`, `reload`) and `by` (who switched it).
    func members(seconds: (Microseconds) -> Double) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("mode", to.map(JSONValue.string) ?? .null), ("from", from.map(JSONValue.string) ?? .null)]
        if let until { members.append(("until", .number((seconds(until) * 1000).rounded() / 1000))) }
        switch cause {
        case .switched(let owner): members += [("cause", .string("switched")), ("by", .string(owner.description))]
        case .expired: members.append(("cause", .string("expired")))
        case .ownerGone(let owner): members += [("cause", .string("disconnected")), ("by", .string(owner.description))]
        case .removed: members.append(("cause", .string("reload")))
        }
        return members
    }
}

extension LayoutChange {
    /// `{"gesture": name, "enabled": bool}` or `{"view": name, "enabled": bool, "frame": [x, y,
    /// width, height]}` (screen px, as `status` lists views), with what changed only.
    var json: JSONValue {
        var members = [target.member]
        if let enabled { members.append(("enabled", .bool(enabled))) }
        if let frame {
            members.append(("frame", .array([frame.x, frame.y, frame.width, frame.height].map { .number(($0 * 10).rounded() / 10) })))
        }
        return .object(members)
    }
}

extension RuntimeTarget {
    /// `("gesture", name)` or `("view", name)`, as a request names it.
    var member: (String, JSONValue) { (kind, .string(name)) }
}
