/// The rules of the health stage (the order of `status` and the metrics: new rules last).
public enum HealthRule: Int, Sendable, CaseIterable, CustomStringConvertible {
    case mask, spot, aligned, farApart, ghost, jump, stuck
    /// A contact that landed on the panel's border (`edge_hold`) and lifted without moving.
    case edge
    /// One report far off a contact's path that came back (`jump`): the report is dropped,
    /// the contact goes on.
    case outlier

    /// As the config, `status` and replay's `filtered` lines name it.
    public var description: String {
        switch self {
        case .mask: "mask"
        case .spot: "spot"
        case .aligned: "aligned"
        case .farApart: "far_apart"
        case .ghost: "ghost"
        case .jump: "jump"
        case .stuck: "stuck"
        case .edge: "edge"
        case .outlier: "outlier"
        }
    }
}

/// How a panel is doing.
public enum HealthState: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ok, noisy, silent

    public var description: String {
        switch self {
        case .ok: "ok"
        case .noisy: "noisy"
        case .silent: "silent"
        }
    }
}

/// Why the state changed, with the numbers that decided it.
public enum HealthReason: Sendable, Equatable, CustomStringConvertible {
    /// Noisy: `count` contacts filtered within a minute, more than `perMinute`.
    case filtered(count: Int, perMinute: Int)
    /// Ok again: the rate stayed at or under `perMinute` for `quiet`.
    case quiet(perMinute: Int, quiet: Microseconds)
    /// Silent: no frame for `silence`.
    case noFrame(silence: Microseconds)
    /// Ok again: a frame arrived.
    case frameAgain

    public var description: String {
        switch self {
        case .filtered(let count, let perMinute): "\(count) contacts filtered within a minute (more than \(perMinute))"
        case .quiet(let perMinute, let quiet):
            "at most \(perMinute) contacts filtered a minute for \(Self.duration(quiet))"
        case .noFrame(let silence): "no frame for \(Self.duration(silence))"
        case .frameAgain: "frames again"
        }
    }

    /// The reason as a token, without its numbers (the journal's `GESTURED_HEALTH_REASON`).
    public var name: String {
        switch self {
        case .filtered: "filtered"
        case .quiet: "quiet"
        case .noFrame: "no_frame"
        case .frameAgain: "frame_again"
        }
    }

    /// `90s`, `250ms`: what the config would say.
    static func duration(_ value: Microseconds) -> String {
        value % 1_000_000 == 0 ? "\(value / 1_000_000)s" : "\(value / 1_000)ms"
    }
}

/// Something the stage tells the operator (the log, subscribers, `status`).
public struct HealthNotice: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case state(from: HealthState, to: HealthState, reason: HealthReason)
        /// A recurring spot is masked from now on (screen px).
        case spotMasked(x: Double, y: Double)
        /// A masked spot went quiet and takes contacts again.
        case spotReleased(x: Double, y: Double)
    }

    public var time: Microseconds
    public var kind: Kind

    public init(time: Microseconds, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}

/// A recurring spot masked now (screen px), since when, and until when unless a contact
/// lands on it before.
public struct MaskedSpot: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var since: Microseconds
    public var until: Microseconds

    public init(x: Double, y: Double, since: Microseconds, until: Microseconds) {
        self.x = x
        self.y = y
        self.since = since
        self.until = until
    }
}

/// One contact the stage kept from the engine and the application, or took back from them.
public struct FilteredContact: Sendable, Equatable {
    public var time: Microseconds
    /// The contact's id as the stage received it.
    public var id: Int32
    public var rule: HealthRule
    /// True when it had been shown and was cancelled; false when nobody ever saw it.
    public var wasShown: Bool
    /// Where it was, screen px.
    public var x: Double
    public var y: Double

    public init(time: Microseconds, id: Int32, rule: HealthRule, wasShown: Bool, x: Double, y: Double) {
        self.time = time
        self.id = id
        self.rule = rule
        self.wasShown = wasShown
        self.x = x
        self.y = y
    }
}

/// What the stage did since it started. Plain fields, no array: counting copies nothing
/// when someone holds an earlier value (`status`).
public struct HealthCounts: Sendable, Equatable {
    /// Contacts seen, and those held back before they were shown.
    public internal(set) var contacts = 0
    public internal(set) var held = 0
    /// Spots masked since start.
    public internal(set) var spotsMasked = 0
    private var mask = 0, spot = 0, aligned = 0, farApart = 0, ghost = 0, jump = 0, stuck = 0, edge = 0, outlier = 0

    public init() {}

    /// Contacts filtered by `rule`; a jump counts the contact split, an outlier the report
    /// dropped.
    public internal(set) subscript(rule: HealthRule) -> Int {
        get {
            switch rule {
            case .mask: mask
            case .spot: spot
            case .aligned: aligned
            case .farApart: farApart
            case .ghost: ghost
            case .jump: jump
            case .stuck: stuck
            case .edge: edge
            case .outlier: outlier
            }
        }
        set {
            switch rule {
            case .mask: mask = newValue
            case .spot: spot = newValue
            case .aligned: aligned = newValue
            case .farApart: farApart = newValue
            case .ghost: ghost = newValue
            case .jump: jump = newValue
            case .stuck: stuck = newValue
            case .edge: edge = newValue
            case .outlier: outlier = newValue
            }
        }
    }

    /// Contacts filtered by every rule.
    public var totalFiltered: Int { mask + spot + aligned + farApart + ghost + jump + stuck + edge + outlier }
}
