/// What one recognizer sees of a frame: its own contacts only (the engine filters by hit
/// view, device and should-receive-touch), and the device's units.
struct RecognizerInput {
    let time: Microseconds
    let contacts: ContactTable
    /// Its contacts present in this frame: still down, or lifted in it.
    let mask: ContactMask
    /// Its contacts still down after this frame.
    let live: ContactMask
    /// Its contacts that went down in this frame.
    let began: ContactMask
    let geometry: DeviceGeometry
    let screen: ScreenSize

    var liveCount: Int { live.nonzeroBitCount }
}

/// What a recognizer asks of the engine. The engine owns arbitration: it may hold a
/// `recognized`/`began` as pending, or refuse it ("prevented by X").
enum RecognizerVerdict: Equatable {
    case none
    /// Continuous and already began: its values changed.
    case changed
    /// Discrete: recognized.
    case recognized(TraceReason)
    /// Continuous: wants to begin.
    case began(TraceReason)
    /// Continuous: its contacts lifted.
    case ended(TraceReason)
    case failed(TraceReason)
}

/// One gesture recognizer: a small state machine over its own contacts. Recognizers never
/// reference each other, never read a clock and never allocate after `init`.
///
/// The engine calls `update` for each frame touching the recognizer's contacts, `expire`
/// once `deadline` has come, `measure` when it emits an event, and `reset` once every
/// contact the recognizer received has lifted after it finished.
protocol Recognizer: AnyObject {
    func update(_ input: RecognizerInput) -> RecognizerVerdict
    /// When it wants `expire` (inclusive), or nil.
    var deadline: Microseconds? { get }
    func expire(_ input: RecognizerInput) -> RecognizerVerdict
    /// Writes location, touches and the type's values into `event`.
    func measure(into event: inout GestureEvent)
    /// The engine reports the gesture began: translation, scale and rotation count from here.
    func didBegin()
    func reset()
}

extension Recognizer {
    /// Discrete recognizers and the long press report no values relative to began.
    func didBegin() {}
}

/// A recognizer's state enum: each has a terminal `finished` case, left only by `reset`.
protocol RecognizerState: Equatable {
    static var finished: Self { get }
}

/// The shared way a recognizer gives up.
protocol FailingRecognizer: AnyObject {
    associatedtype State: RecognizerState
    var state: State { get set }
}

extension FailingRecognizer {
    /// Moves to `finished` and reports the failure.
    func fail(_ reason: TraceReason) -> RecognizerVerdict {
        state = .finished
        return .failed(reason)
    }
}

/// Builds the recognizer of a spec.
func makeRecognizer(_ spec: GestureSpec) -> any Recognizer {
    switch spec.parameters {
    case .tap(let parameters): TapRecognizer(parameters)
    case .longPress(let parameters): LongPressRecognizer(parameters)
    case .pan(let parameters): PanRecognizer(parameters)
    case .edgePan(let parameters): PanRecognizer(parameters)
    case .swipe(let parameters): SwipeRecognizer(parameters)
    case .pinch(let parameters): PinchRecognizer(parameters)
    case .rotation(let parameters): RotationRecognizer(parameters)
    }
}

/// Location and touch count shared by every recognizer's events.
struct Location {
    var x = 0.0, y = 0.0, touches = 0

    mutating func update(_ input: RecognizerInput, _ mask: ContactMask) {
        guard mask != 0 else { return }
        let c = input.contacts.centroid(mask)
        x = c.x
        y = c.y
        touches = mask.nonzeroBitCount
    }

    func write(into event: inout GestureEvent) {
        event.x = x
        event.y = y
        event.touches = touches
    }
}
