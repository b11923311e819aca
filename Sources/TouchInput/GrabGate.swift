/// When a panel that passthrough was just switched on for may be grabbed: at a frame
/// boundary (`SYN_REPORT`) with no contact down.
///
/// A contact already down went down for the compositor through the panel; grabbed then,
/// the compositor would never see it lift and keep it down for good. So the grab waits for
/// the panel's own slot state to show every contact lifted. Fed the panel's raw events
/// while it waits; pure.
public struct GrabGate: Equatable, Sendable {
    /// Per slot, the tracking id the panel last gave it (-1: free). Empty for a device
    /// without slots (protocol A through the kernel, single touch): there `BTN_TOUCH` tells.
    private var trackingIDs: [Int32]
    private var slot = 0
    private var touching: Bool
    /// Events of a frame not yet ended by its `SYN_REPORT`.
    private var inFrame = false

    /// Starts from the panel's state (`EvdevDevice.grabGate()` takes libevdev's, which
    /// includes contacts down before gestured opened it): the tracking id of each slot, the
    /// current slot (the kernel sends `ABS_MT_SLOT` only when it changes) and `BTN_TOUCH`.
    public init(trackingIDs: [Int32], slot: Int = 0, touching: Bool) {
        self.trackingIDs = trackingIDs
        self.slot = slot
        self.touching = touching
    }

    public mutating func feed(_ event: RawInputEvent) {
        switch event.type {
        case InputCodes.evSyn:
            if event.code == InputCodes.synReport { inFrame = false }
            return
        case InputCodes.evAbs where event.code == InputCodes.absMTSlot:
            slot = Int(event.value)
        case InputCodes.evAbs where event.code == InputCodes.absMTTrackingID:
            if slot >= 0 && slot < trackingIDs.count { trackingIDs[slot] = event.value }
        case InputCodes.evKey where event.code == InputCodes.btnTouch:
            touching = event.value != 0
        default:
            break
        }
        inFrame = true
    }

    /// Contacts the panel has down now.
    public var contactsDown: Int {
        trackingIDs.isEmpty ? (touching ? 1 : 0) : trackingIDs.count { $0 >= 0 }
    }

    /// True at a frame boundary with no contact down: the grab can be taken now.
    public var open: Bool { !inFrame && contactsDown == 0 }
}
