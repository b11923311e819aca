/// A set of contacts as bits over `ContactTable` slots: sets are compared and combined
/// without allocating.
typealias ContactMask = UInt64

extension ContactMask {
    /// Calls `body` with each set bit's index, lowest first.
    @inline(__always) func forEachIndex(_ body: (Int) -> Void) {
        var rest = self
        while rest != 0 {
            body(rest.trailingZeroBitCount)
            rest &= rest &- 1
        }
    }
}

/// One contact as the engine tracks it, from its first frame until no recognizer refers to it.
struct TrackedContact {
    var device = DeviceID(0)
    var id: Int32 = 0
    var toolType = ToolType.finger
    /// The view it was hit-tested to when it began (-1: none).
    var hitView = -1
    var downAt: Microseconds = 0
    /// How long a frame stage held it back before `downAt` (`ScreenContact.held`).
    var held: Microseconds = 0
    /// Screen px, y down.
    var x = 0.0, y = 0.0
    /// The same position in millimetres (screen axes scaled by the device's mm per px).
    var mmX = 0.0, mmY = 0.0
    var startX = 0.0, startY = 0.0
    var startMMX = 0.0, startMMY = 0.0

    /// Distance in mm from where it went down.
    var travelMM: Double {
        let dx = mmX - startMMX
        let dy = mmY - startMMY
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// Every contact the engine knows, in a fixed pool of `capacity` slots allocated once.
/// A slot stays taken after its contact lifts while any recognizer's received set still
/// names it, so a bit never changes meaning under a recognizer.
final class ContactTable {
    static let capacity = 64

    // `@exclusivity(unchecked)`: the table (one engine's) is used from one thread only, and the runtime's
    // dynamic exclusivity checks on these properties cost much of a frame (docs/BENCHMARKS.md).
    @exclusivity(unchecked) var slots = [TrackedContact](repeating: TrackedContact(), count: ContactTable.capacity)
    /// Slots holding a contact (live or remembered).
    @exclusivity(unchecked) var taken: ContactMask = 0
    /// Contacts still down after the current frame.
    @exclusivity(unchecked) var live: ContactMask = 0
    /// What happened in the current frame.
    @exclusivity(unchecked) var began: ContactMask = 0
    @exclusivity(unchecked) var moved: ContactMask = 0
    @exclusivity(unchecked) var ended: ContactMask = 0
    @exclusivity(unchecked) var cancelled: ContactMask = 0
    /// The cancelled contacts that were cancelled because they became palms.
    @exclusivity(unchecked) var becamePalm: ContactMask = 0

    /// Contacts that changed in the current frame.
    var touched: ContactMask { began | moved | ended | cancelled }

    func startFrame() {
        began = 0
        moved = 0
        ended = 0
        cancelled = 0
        becamePalm = 0
    }

    /// The slot of (device, id) while it is down, or nil.
    func slot(device: DeviceID, id: Int32) -> Int? {
        var rest = live
        while rest != 0 {
            let i = rest.trailingZeroBitCount
            if slots[i].id == id, slots[i].device == device { return i }
            rest &= rest &- 1
        }
        return nil
    }

    /// A free slot, or nil when all are taken (the contact is then ignored).
    func takeSlot() -> Int? {
        let free = ~taken
        guard free != 0 else { return nil }
        let i = free.trailingZeroBitCount
        taken |= 1 << ContactMask(i)
        return i
    }

    /// Frees the slots that are neither down nor named in `referenced`.
    func release(keeping referenced: ContactMask) {
        taken &= live | referenced
    }

    // MARK: geometry (free of allocation; mm variants for thresholds, px for outputs)

    /// Mean position of the contacts in `mask`, screen px.
    func centroid(_ mask: ContactMask) -> (x: Double, y: Double) { mean(mask) { ($0.x, $0.y) } }

    /// Mean position of the contacts in `mask`, mm.
    func centroidMM(_ mask: ContactMask) -> (x: Double, y: Double) { mean(mask) { ($0.mmX, $0.mmY) } }

    /// Mean of `point` over the contacts in `mask`; (0, 0) for none.
    private func mean(_ mask: ContactMask, _ point: (TrackedContact) -> (x: Double, y: Double)) -> (x: Double, y: Double) {
        var sx = 0.0
        var sy = 0.0
        var n = 0.0
        mask.forEachIndex { i in
            let p = point(slots[i])
            sx += p.x
            sy += p.y
            n += 1
        }
        return n > 0 ? (sx / n, sy / n) : (0, 0)
    }

    /// Mean distance of the contacts from their centroid (Flutter's span), px and mm.
    func span(_ mask: ContactMask) -> (px: Double, mm: Double) {
        let c = centroid(mask)
        let cm = centroidMM(mask)
        var px = 0.0
        var mm = 0.0
        var n = 0.0
        mask.forEachIndex { i in
            let s = slots[i]
            px += length(s.x - c.x, s.y - c.y)
            mm += length(s.mmX - cm.x, s.mmY - cm.y)
            n += 1
        }
        return n > 0 ? (px / n, mm / n) : (0, 0)
    }

    /// Angle of the line from the lowest to the next lowest contact of `mask`, radians,
    /// clockwise positive on a y-down screen; nil with fewer than two contacts.
    func angle(_ mask: ContactMask) -> Double? {
        guard mask.nonzeroBitCount >= 2 else { return nil }
        let a = mask.trailingZeroBitCount
        let rest = mask & (mask &- 1)
        let b = rest.trailingZeroBitCount
        return angleOf(dy: slots[b].y - slots[a].y, dx: slots[b].x - slots[a].x)
    }

    /// The largest distance in mm any contact of `mask` has moved from where it went down.
    func largestTravelMM(_ mask: ContactMask) -> Double {
        var most = 0.0
        mask.forEachIndex { i in most = max(most, slots[i].travelMM) }
        return most
    }
}
