/// One contact that changed in the frame the engine handled last, as `gesturectl monitor
/// --touches` shows it: where the engine placed it and which view it hit.
public struct TouchReport: Equatable, Sendable {
    /// The frame's time, µs.
    public var time: Microseconds
    public var device: DeviceID
    /// The contact's id as the normalizer numbers contacts (`Contact.id`, as `gesturectl
    /// touches` prints it): unique per device while it is down.
    public var id: Int32
    /// `began`, `moved`, `ended` or `cancelled` (stationary contacts are not reported).
    public var phase: TouchPhase
    /// Screen px, y down.
    public var x: Double
    public var y: Double
    /// The same position in millimetres from the screen's top-left corner, at the device's
    /// scale (what movement thresholds are measured in).
    public var mmX: Double
    public var mmY: Double
    /// The view it was hit-tested to when it went down (index into the model's views; -1 none).
    public var hitView: Int

    public init(
        time: Microseconds, device: DeviceID, id: Int32, phase: TouchPhase, x: Double, y: Double, mmX: Double, mmY: Double, hitView: Int
    ) {
        self.time = time
        self.device = device
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
        self.mmX = mmX
        self.mmY = mmY
        self.hitView = hitView
    }
}

extension GestureEngine {
    /// Calls `body` with each contact that began, moved, ended or was cancelled in the last
    /// frame `handle` took, in slot order. Allocates nothing; valid until the next frame.
    public func forEachTouch(_ body: (TouchReport) -> Void) {
        let table = contacts
        table.touched.forEachIndex { i in
            let bit = ContactMask(1) << ContactMask(i)
            // A contact that went down and up within one frame is reported as lifted.
            let phase: TouchPhase =
                table.cancelled & bit != 0
                ? .cancelled
                : table.ended & bit != 0
                    ? .ended
                    : table.began & bit != 0 ? .began : .moved
            let s = table.slots[i]
            body(
                TouchReport(time: now, device: s.device, id: s.id, phase: phase, x: s.x, y: s.y, mmX: s.mmX, mmY: s.mmY, hitView: s.hitView)
            )
        }
    }
}
