import GestureCore

/// The touch health stage of every attached device: one `TouchHealth` per device, with the
/// settings of the `[[device]]` rule it matched and thresholds in mm from its geometry. It
/// keeps a panel's own faults (ghosts, bursts, spots, jumps, bezel touches, stuck contacts,
/// masks) from
/// the engine and so from the application behind it.
public struct HealthStage: FrameStage {
    /// Per attached device, in attach order.
    public private(set) var devices: [TouchHealth] = []
    /// Whether each device's stage records the contacts it filters (someone watches them).
    public internal(set) var recordsFiltered = false {
        didSet { for d in 0..<devices.count { devices[d].recordsFiltered = recordsFiltered } }
    }
    private let splitIDs = SplitIDs()

    public init() {
        devices.reserveCapacity(8)
    }

    /// Starts (or restarts, after a remapping or a reload) the device's stage at `time`.
    mutating func attach(device: DeviceID, settings: TouchHealthSettings, geometry: DeviceGeometry, at time: Microseconds) {
        let health = TouchHealth(device: device, settings: settings, geometry: geometry, since: time)
        health.recordsFiltered = recordsFiltered
        if let d = index(device) {
            // Unchanged, it keeps its contacts and counts; changed, the new stage takes the
            // contacts down as already shown.
            let old = devices[d]
            if old.settings == settings, old.geometry.mmPerPixelX == geometry.mmPerPixelX,
                old.geometry.mmPerPixelY == geometry.mmPerPixelY
            {
                return
            }
            devices[d] = health
        } else {
            devices.append(health)
        }
    }

    /// Whether some device's stage has notices or filtered contacts to drain.
    public var hasUndrained: Bool { devices.contains { $0.hasUndrained } }

    /// The stage of a device, if attached.
    public func health(of device: DeviceID) -> TouchHealth? { index(device).map { devices[$0] } }

    public mutating func process(_ frame: inout ScreenFrame) {
        guard let d = index(frame.device) else { return }
        // Unretained: the stage holds it for the call (a retain and release a frame otherwise).
        unowned(unsafe) let ids = splitIDs
        devices[d].process(&frame) { ids.take(continuing: $0) }
    }

    public mutating func detach(device: DeviceID) {
        if let d = index(device) { devices.remove(at: d) }
    }

    public var nextDeadline: Microseconds? {
        var earliest: Microseconds?
        for d in 0..<devices.count {
            if let t = devices[d].nextDeadline, t < earliest ?? .max { earliest = t }
        }
        return earliest
    }

    /// Runs the timers of the device whose deadline is `time` (the earliest).
    public mutating func expire(at time: Microseconds, into frame: inout ScreenFrame) -> Bool {
        let ids = splitIDs
        for d in 0..<devices.count where devices[d].nextDeadline == time {
            guard devices[d].advance(to: time, freshID: { ids.take(continuing: $0) }) else { return false }
            devices[d].moveOutput(into: &frame)
            return true
        }
        return false
    }

    /// The panel contact a contact shown downstream continues: for one split off a jump,
    /// the panel's contact it was split from; for any other, `id` itself. Touch delivery
    /// shows a split contact on the clone with its panel contact's raw position.
    public func panelContact(of id: Int32) -> Int32 { splitIDs.panelContact(of: id) ?? id }

    /// Ids of contacts split off a jump count down from the top of `Int32`: the
    /// normalizers count up from 0, so the two never meet. Each remembers its panel
    /// contact for the next `remembered` splits (ids are handed out in order, so a ring
    /// indexed by the id: no search, no allocation). A class: the stage's non-escaping id
    /// source may not capture the mutating stage itself.
    private final class SplitIDs {
        /// Far more than the contacts that can be down or held back at once (the engine
        /// tracks 64): a split contact is looked up while it is shown.
        static let remembered = 256
        private var next = Int32.max
        private var panel = [Int32](repeating: -1, count: remembered)

        func take(continuing contact: Int32) -> Int32 {
            defer { next -= 1 }
            panel[Int(Int32.max - next) % Self.remembered] = contact
            return next
        }

        /// Nil for an id no split gave out (or one `remembered` splits ago).
        func panelContact(of id: Int32) -> Int32? {
            guard id > next, Int(id - next) <= Self.remembered else { return nil }
            return panel[Int(Int32.max - id) % Self.remembered]
        }
    }

    @inline(__always) private func index(_ device: DeviceID) -> Int? {
        for d in 0..<devices.count where devices[d].device == device { return d }
        return nil
    }
}
