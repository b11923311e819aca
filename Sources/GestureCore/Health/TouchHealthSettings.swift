/// What the health stage of one device filters and watches (a `[[device]]`'s `[device.health]`).
///
/// Lengths are resolved per device (`DeviceGeometry.millimeters`), durations are µs. Every rule
/// is off unless set, except the stuck-contact release: a contact resting motionless for a
/// minute is a firmware fault at a kiosk, and while it lasts every gesture that counts
/// touches is blind (docs/CONFIG.md, "Touch health").
public struct TouchHealthSettings: Equatable, Sendable {
    /// Regions of the screen (px, as view frames) where contacts are ignored.
    public var masks: [Rect] = []
    /// Ghost contacts: a still contact that lifts sooner than this is noise. 0: off.
    public var minContact: Microseconds = 0
    /// Hold each new contact back for `minContact` so a ghost is never shown; false: show it
    /// at once and cancel it when it turns out a ghost.
    public var holdNewContacts = true
    /// A contact that stays within this distance of where it went down is still (ghosts,
    /// far-apart taps, spots, stuck contacts).
    public var stillRadius: Length = .millimeters(1.5)
    /// Far-apart bursts: still contacts that went down within `farApartWithin` of each other
    /// with the nearest other one further than this are all noise. nil: off.
    public var farApart: Length?
    public var farApartWithin: Microseconds = 30_000
    /// Aligned bursts: a new contact this close along the screen's x to a contact down is noise.
    public var aligned: Length?
    /// Recurring spots. nil: off.
    public var spot: Spot?
    /// Jumps: a contact that moves further than this in one frame is held for one frame:
    /// back within this of where it was, the report is dropped (an outlier); else the
    /// contact is split. nil: off.
    public var jump: Length?
    /// Bezel touches: a new contact landing within this of the panel's border is held until
    /// it moves beyond `stillRadius` (then shown from where it landed), dropped when it
    /// lifts still. nil: off.
    public var edgeHold: Length?
    /// Stuck contacts: a contact still for this long is cancelled. 0: off.
    public var stuckAfter: Microseconds = 60_000_000
    /// The panel's state: noisy above a rate of filtered contacts. nil: off.
    public var noisy: Noisy?
    /// The panel is silent after this long without a frame. 0: off.
    public var silentAfter: Microseconds = 0

    /// A spot where `count` still contacts went down within `within` of each other's
    /// position (`radius`) is masked, until no contact landed on it for `release`.
    public struct Spot: Equatable, Sendable {
        public var count: Int
        public var radius: Length = .millimeters(2)
        public var within: Microseconds = 4_000_000
        public var release: Microseconds = 60_000_000
        public init(count: Int) { self.count = count }
    }

    /// Noisy when more than `perMinute` contacts were filtered within a minute; ok again once
    /// the rate stayed at or under it for `quiet`.
    public struct Noisy: Equatable, Sendable {
        public var perMinute: Int
        public var quiet: Microseconds = 300_000_000
        public init(perMinute: Int) { self.perMinute = perMinute }
    }

    public init() {}

    /// Every rule on, the masks a corner (what `make bench` and the allocation probe
    /// measure the stage's cost with): masks, ghosts with the hold, bursts, spots, jumps,
    /// bezel touches, stuck contacts, the noisy and silent states.
    public static var everyRule: TouchHealthSettings {
        var s = TouchHealthSettings()
        s.masks = [Rect(x: 0, y: 0, width: 20, height: 20)]
        s.minContact = 60_000
        s.farApart = .millimeters(150)
        s.aligned = .millimeters(0.5)
        s.spot = Spot(count: 5)
        s.jump = .millimeters(20)
        s.edgeHold = .millimeters(0.5)
        s.noisy = Noisy(perMinute: 3)
        s.silentAfter = 5_000_000
        return s
    }

    /// How long a new contact waits before it is shown (0: shown at once).
    public var hold: Microseconds { minContact > 0 && holdNewContacts ? minContact : 0 }
}
