import GestureCore

/// A palm (`MT_TOOL_PALM`) is a cancelled touch, as UIKit cancels a touch and libinput a
/// touchscreen palm. In the frame a contact becomes one it goes on as `cancelled` (with the
/// palm tool: the engine ends the gestures holding it "because it became a palm"); from
/// then on its frames are dropped until it lifts, even if the panel calls it a finger
/// again. A contact that begins as a palm is dropped whole: it reaches no gesture and the
/// application under the gestures never sees it.
public struct PalmRejection: FrameStage {
    private struct Palm: Equatable {
        var device: DeviceID
        var id: Int32
    }

    /// Contacts down that are, or once were, palms.
    private var palms: [Palm] = []

    public init() {
        // Room for every slot of a few panels: no allocation while palms come and go.
        palms.reserveCapacity(64)
    }

    /// Palms down now.
    public var count: Int { palms.count }

    public mutating func process(_ frame: inout ScreenFrame) {
        var kept = 0
        for i in 0..<frame.contacts.count {
            var contact = frame.contacts[i]
            if let k = palmIndex(frame.device, contact.id) {
                if contact.phase.isTerminal { palms.remove(at: k) }
                continue
            }
            if contact.toolType == .palm {
                if !contact.phase.isTerminal { palms.append(Palm(device: frame.device, id: contact.id)) }
                if contact.phase == .began { continue }
                contact.phase = .cancelled
                frame.contacts[kept] = contact
            } else if kept != i {
                frame.contacts[kept] = contact
            }
            kept += 1
        }
        if kept < frame.contacts.count { frame.contacts.removeLast(frame.contacts.count - kept) }
    }

    public mutating func detach(device: DeviceID) {
        palms.removeAll { $0.device == device }
    }

    /// Palms need no time.
    public var nextDeadline: Microseconds? { nil }

    public mutating func expire(at time: Microseconds, into frame: inout ScreenFrame) -> Bool { false }

    private func palmIndex(_ device: DeviceID, _ id: Int32) -> Int? {
        for k in 0..<palms.count where palms[k].id == id && palms[k].device == device { return k }
        return nil
    }
}
