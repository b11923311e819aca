import GestureCore
import TouchInput

/// Where a `TouchEncoder` sends a grabbed panel's clone frames: the daemon's
/// `TouchForwarder` writes them to a uinput device. The encoder decides and encodes; only
/// the sink does I/O (and reads the clock, to time the panel-to-clone delay).
public protocol TouchSink: AnyObject {
    /// Slots the clone has (`ABS_MT_SLOT` range).
    var slotCount: Int { get }
    /// Whether the clone takes `ABS_MT_PRESSURE` and `ABS_MT_TOUCH_MAJOR`.
    var hasPressure: Bool { get }
    var hasTouchMajor: Bool { get }
    /// One evdev frame, ending in `SYN_REPORT` (events carry no time). `panelTime`: the
    /// kernel time of the panel frame it shows, on the frame that answers it; nil on frames
    /// that answer none (a palm's release, lifts at a grab's end).
    func write(_ frame: [RawInputEvent], answering panelTime: Microseconds?)
}
