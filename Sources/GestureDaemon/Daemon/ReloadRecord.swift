import GestureCore

/// The outcome of the last reload, for `status`.
struct ReloadRecord {
    /// Monotonic time of the reload.
    var at: Microseconds
    /// Nil when the new file was taken; else every problem, one per line.
    var error: String?

    func json(origin: Microseconds) -> JSONValue {
        var members: [(String, JSONValue)] = [("at_s", .number(Double((at - origin) / 1000) / 1000)), ("ok", .bool(error == nil))]
        if let error { members.append(("error", .string(error))) }
        return .object(members)
    }
}
