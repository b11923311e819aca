import GestureCore

/// The values of one contact as the device last reported them.
struct ContactValues {
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = 0
    var touchMajor: Int32 = 0
    var toolType: ToolType = .finger
}

/// One evdev slot between two `SYN_REPORT`s: the contact the last frame showed, the one the
/// events since then describe, and a contact that ended inside the frame.
///
/// Values persist across contacts in the slot because the kernel drops a value equal to the
/// slot's previous one (a new contact may arrive without X or Y).
struct SlotState {
    static let none: Int32 = -1

    /// Current values of the slot.
    var values = ContactValues()
    /// Contact id shown live in the last frame, or `none`.
    var liveID: Int32 = none
    /// Contact id described by this frame's events, or `none`.
    var currentID: Int32 = none
    /// The device's tracking id for `currentID` (to ignore a repeated value).
    var currentTrackingID: Int32 = none
    /// The live contact's last values, captured when this frame replaced or ended it.
    var liveFinal = ContactValues()
    /// A contact that began and ended within this frame, or `none`.
    var transientID: Int32 = none
    var transientFinal = ContactValues()
    /// Whether a value of the current contact changed in this frame.
    var changed = false
}
