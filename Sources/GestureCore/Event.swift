/// The states that appear in every output (`possible`, `pending` and `failed` only in traces
/// and `status`).
public enum GestureState: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case possible, began, changed, ended, cancelled, failed, recognized
    /// Recognized or began, held until its failure requirements fail.
    case pending

    public var description: String {
        switch self {
        case .possible: "possible"
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .failed: "failed"
        case .recognized: "recognized"
        case .pending: "pending"
        }
    }
}

/// One thing a gesture did, as the engine writes it into the caller's event buffer.
///
/// Plain numbers and indices only (names are resolved by whoever prints). The JSON form
/// (replay and the event stream) uses these fields: `t`, `gesture`, `type`, `state`, `view`,
/// `x`, `y`, `touches`, then per type `translation_x`, `translation_y`, `velocity_x`,
/// `velocity_y` (pan, edge-pan), `scale`, `velocity` (pinch), `rotation`, `velocity`
/// (rotation), `direction` (swipe), `edge` (edge-pan), and `delayed_from` on a recognition
/// that waited for a failure requirement.
public struct GestureEvent: Equatable, Sendable {
    /// When the engine emitted the event, microseconds.
    public var time: Microseconds
    /// Index into `GestureModel.gestures`.
    public var gesture: Int
    /// Index into `GestureModel.views` (the gesture's view).
    public var view: Int
    public var state: GestureState
    public var device: DeviceID
    /// Centroid of the gesture's contacts, screen px, y down.
    public var x: Double
    public var y: Double
    public var touches: Int
    /// Pan and edge pan: translation since began (px) and velocity (px/s).
    public var translationX: Double
    public var translationY: Double
    public var velocityX: Double
    public var velocityY: Double
    /// Pinch: scale (1 at began); rotation: radians, clockwise positive (0 at began).
    public var scale: Double
    public var rotation: Double
    /// Pinch: scale factor per second; rotation: radians per second.
    public var velocity: Double
    /// Swipe: the one direction recognized.
    public var direction: Directions
    /// Edge pan: the edge it started from.
    public var edge: Edges
    /// When a recognition that waited for a failure requirement first happened.
    public var delayedFrom: Microseconds?

    public init(
        time: Microseconds, gesture: Int, view: Int, state: GestureState, device: DeviceID,
        x: Double = 0, y: Double = 0, touches: Int = 0,
        translationX: Double = 0, translationY: Double = 0, velocityX: Double = 0, velocityY: Double = 0,
        scale: Double = 1, rotation: Double = 0, velocity: Double = 0,
        direction: Directions = [], edge: Edges = [], delayedFrom: Microseconds? = nil
    ) {
        self.time = time
        self.gesture = gesture
        self.view = view
        self.state = state
        self.device = device
        self.x = x
        self.y = y
        self.touches = touches
        self.translationX = translationX
        self.translationY = translationY
        self.velocityX = velocityX
        self.velocityY = velocityY
        self.scale = scale
        self.rotation = rotation
        self.velocity = velocity
        self.direction = direction
        self.edge = edge
        self.delayedFrom = delayedFrom
    }
}
