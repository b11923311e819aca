import GestureCore

@testable import TouchInput

/// Follows contacts through frames and records every violation of the normalizer's
/// contract: a began id that was seen before, a contact that changes or ends without having
/// begun, a live contact missing from a frame, two entries for one id other than
/// began+ended, a frame going back in time.
struct ContactLedger {
    private(set) var live: [Int32: Int32] = [:]  // id -> slot
    private(set) var seen: Set<Int32> = []
    private(set) var violations: [String] = []
    private(set) var contacts = 0
    private(set) var maxSimultaneous = 0
    private(set) var frames = 0
    private(set) var cancelled = 0
    private var lastTime = Int64.min

    mutating func record(_ frame: TouchFrame) {
        frames += 1
        if frame.time < lastTime { violations.append("frame at \(frame.time) after \(lastTime)") }
        lastTime = frame.time
        var present: Set<Int32> = []
        var terminal: Set<Int32> = []
        for contact in frame.contacts {
            switch contact.phase {
            case .began:
                if seen.contains(contact.id) { violations.append("id \(contact.id) began again at \(frame.time)") }
                seen.insert(contact.id)
                live[contact.id] = contact.slot
                contacts += 1
            case .moved, .stationary:
                if live[contact.id] == nil || terminal.contains(contact.id) {
                    violations.append("id \(contact.id) \(contact.phase) while not live at \(frame.time)")
                }
            case .ended, .cancelled:
                if live[contact.id] == nil { violations.append("id \(contact.id) \(contact.phase) while not live at \(frame.time)") }
                live[contact.id] = nil
                terminal.insert(contact.id)
                if contact.phase == .cancelled { cancelled += 1 }
            }
            if contact.phase != .began && contact.phase != .ended && contact.phase != .cancelled && present.contains(contact.id) {
                violations.append("id \(contact.id) twice in the frame at \(frame.time)")
            }
            present.insert(contact.id)
        }
        for id in live.keys where !present.contains(id) {
            violations.append("live id \(id) missing from the frame at \(frame.time)")
        }
        maxSimultaneous = max(maxSimultaneous, frame.contacts.count { !$0.phase.isTerminal })
    }
}
