/// One contact placed on the screen, as the frame stages and the engine see it: where it is
/// in screen px and in mm (the device's geometry applied at the pipeline's boundary).
public struct ScreenContact: Equatable, Sendable {
    /// The normalizer's contact id (`Contact.id`): unique per device while it is down.
    public var id: Int32
    public var phase: TouchPhase
    public var toolType: ToolType
    /// Screen px, y down.
    public var x: Double
    public var y: Double
    /// The same position in millimetres from the screen's top-left corner, at the device's
    /// scale (what movement thresholds are measured in).
    public var mmX: Double
    public var mmY: Double
    /// On a `began`: how long a frame stage held the contact back after it went down on the
    /// panel (the health stage's hold on new contacts), which the application waits on top
    /// of any gesture's `delays_touches_began`. 0 otherwise.
    public var held: Microseconds

    public init(
        id: Int32, phase: TouchPhase, toolType: ToolType = .finger, x: Double, y: Double, mmX: Double, mmY: Double,
        held: Microseconds = 0
    ) {
        self.id = id
        self.phase = phase
        self.toolType = toolType
        self.x = x
        self.y = y
        self.mmX = mmX
        self.mmY = mmY
        self.held = held
    }
}

/// Every contact of one device at one `SYN_REPORT`, on the screen. Like `TouchFrame`, its
/// `contacts` buffer is reused from frame to frame by whoever fills it.
public struct ScreenFrame: Sendable {
    public var device: DeviceID
    /// Kernel timestamp, µs (recordings: since their first event).
    public var time: Microseconds
    /// Live contacts plus those that ended or were cancelled in this frame.
    public var contacts: [ScreenContact]

    public init(device: DeviceID, time: Microseconds, contacts: [ScreenContact]) {
        self.device = device
        self.time = time
        self.contacts = contacts
    }
}

extension DeviceGeometry {
    /// A normalizer contact on the screen: px and mm (the pipeline's boundary).
    @inlinable public func place(_ contact: Contact) -> ScreenContact {
        let p = screenPoint(normalizedX: contact.normalizedX, normalizedY: contact.normalizedY)
        return ScreenContact(
            id: contact.id, phase: contact.phase, toolType: contact.toolType, x: p.x, y: p.y,
            mmX: p.x * mmPerPixelX, mmY: p.y * mmPerPixelY)
    }

    /// A normalizer frame on the screen (tests and tools; the pipeline reuses its buffer).
    public func place(_ frame: TouchFrame) -> ScreenFrame {
        ScreenFrame(device: frame.device, time: frame.time, contacts: frame.contacts.map(place))
    }
}
