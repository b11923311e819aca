/// `status.runtime`: the mode in force and every runtime change (`set`) with who made it
/// and since when (docs/PROTOCOL.md). Times are seconds of uptime, as `t` in the stream.
public struct RuntimeStatus: Equatable, Sendable {
    /// Who made a change or switched the mode.
    public struct Owner: Equatable, Sendable, CustomStringConvertible {
        /// `client`, `action` or `script`.
        public var kind: String
        public var connection: Int?
        public var pid: Int?
        public var uid: Int?
        /// The gesture whose action switched the mode.
        public var gesture: String?

        public init(kind: String, connection: Int? = nil, pid: Int? = nil, uid: Int? = nil, gesture: String? = nil) {
            self.kind = kind
            self.connection = connection
            self.pid = pid
            self.uid = uid
            self.gesture = gesture
        }

        var json: JSONValue {
            var members: [(String, JSONValue)] = [("kind", .string(kind))]
            if let connection { members.append(("connection", .number(Double(connection)))) }
            if let pid { members.append(("pid", .number(Double(pid)))) }
            if let uid { members.append(("uid", .number(Double(uid)))) }
            if let gesture { members.append(("gesture", .string(gesture))) }
            return .object(members)
        }

        init(json: JSONValue?) {
            self.init(
                kind: json?["kind"]?.stringValue ?? "?", connection: json?["connection"]?.intValue, pid: json?["pid"]?.intValue,
                uid: json?["uid"]?.intValue, gesture: json?["gesture"]?.stringValue)
        }

        /// `pid 812 uid 1000`, `action of 'secret'`, `script`.
        public var description: String {
            switch kind {
            case "client": "pid \(pid ?? 0) uid \(uid ?? 0)"
            case "action": "action of '\(gesture ?? "?")'"
            default: kind
            }
        }
    }

    public struct Mode: Equatable, Sendable {
        public var name: String
        public var owner: Owner
        public var keep: Bool
        public var since: Double
        /// When it ends by itself (`for`).
        public var until: Double?

        public init(name: String, owner: Owner, keep: Bool, since: Double, until: Double?) {
            self.name = name
            self.owner = owner
            self.keep = keep
            self.since = since
            self.until = until
        }
    }

    /// One `set` in force: `kind` is `gesture` or `view`.
    public struct Change: Equatable, Sendable {
        public var kind: String
        public var name: String
        public var enabled: Bool?
        /// The view's frame as asked, in the config's units (`"50%"`, `"120px"`), x y w h.
        public var frame: [String]?
        public var owner: Owner
        public var keep: Bool
        public var since: Double

        public init(
            kind: String, name: String, enabled: Bool?, frame: [String]?, owner: Owner, keep: Bool, since: Double
        ) {
            self.kind = kind
            self.name = name
            self.enabled = enabled
            self.frame = frame
            self.owner = owner
            self.keep = keep
            self.since = since
        }
    }

    public var mode: Mode?
    public var changes: [Change] = []

    public init(mode: Mode? = nil, changes: [Change] = []) {
        self.mode = mode
        self.changes = changes
    }

    var json: JSONValue {
        let mode: JSONValue =
            self.mode.map { mode in
                .object([
                    ("name", .string(mode.name)), ("owner", mode.owner.json), ("keep", .bool(mode.keep)),
                    ("since_s", .number(mode.since)), ("until_s", mode.until.map { .number($0) } ?? .null),
                ])
            } ?? .null
        let changes = changes.map { change -> JSONValue in
            var members: [(String, JSONValue)] = [(change.kind, .string(change.name))]
            if let enabled = change.enabled { members.append(("enabled", .bool(enabled))) }
            if let frame = change.frame {
                members.append(("frame", .object(zip(["x", "y", "width", "height"], frame).map { ($0, .string($1)) })))
            }
            members += [("owner", change.owner.json), ("keep", .bool(change.keep)), ("since_s", .number(change.since))]
            return .object(members)
        }
        return .object([("mode", mode), ("changes", .array(changes))])
    }

    init(json: JSONValue) {
        if let mode = json["mode"], mode["name"] != nil {
            self.mode = Mode(
                name: mode["name"]?.stringValue ?? "?", owner: Owner(json: mode["owner"]), keep: mode["keep"]?.boolValue ?? false,
                since: mode["since_s"]?.doubleValue ?? 0, until: mode["until_s"]?.doubleValue)
        }
        changes =
            json["changes"]?.arrayValue?.map { change in
                let kind = change["gesture"] != nil ? "gesture" : "view"
                let frame = change["frame"].map { frame in
                    ["x", "y", "width", "height"].map { frame[$0]?.stringValue ?? "?" }
                }
                return Change(
                    kind: kind, name: change[kind]?.stringValue ?? "?", enabled: change["enabled"]?.boolValue, frame: frame,
                    owner: Owner(json: change["owner"]), keep: change["keep"]?.boolValue ?? false,
                    since: change["since_s"]?.doubleValue ?? 0)
            } ?? []
    }
}
