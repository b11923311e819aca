import ActionDispatch
import GestureControl
import GestureCore
import LinuxSystem
import SystemLoop
import TouchInput
import TouchPipeline

/// The daemon's device write for one grabbed panel: the frames its `TouchEncoder` made go to
/// the virtual clone (uinput), one `write(2)` per frame, and each frame that answers a panel
/// frame is timed from the panel's kernel timestamp. Write failures are counted per frame,
/// never fatal: the next frame is tried again.
public final class TouchForwarder: TouchSink {
    /// The clone applications read.
    public let virtual: any TouchOutput
    /// Frames whose write failed, and the last failure (both in `status`).
    public private(set) var failures = 0
    public private(set) var lastFailure: SystemError?
    /// The last `delays.count` panel-to-clone delays, µs: from the panel frame's kernel
    /// timestamp to the clone's frame being written (which the kernel stamps then).
    private var delays = [Microseconds](repeating: 0, count: 4096)
    private(set) var delayCount = 0
    /// Every delay since the clone was made, for the exposition (fixed buckets: no allocation).
    private(set) var delayHistogram = Histogram(bounds: DeviceMetrics.delayBounds)

    /// The loop's clock, read after each write: the end of a delay.
    private let clock: LoopClock

    public init(virtual: any TouchOutput, clock: LoopClock) {
        self.virtual = virtual
        self.clock = clock
    }

    public var slotCount: Int { virtual.slotCount }
    public var hasPressure: Bool { virtual.hasPressure }
    public var hasTouchMajor: Bool { virtual.hasTouchMajor }

    public func write(_ frame: [RawInputEvent], answering panelTime: Microseconds?) {
        do {
            try virtual.write(frame)
        } catch {
            failures += 1
            lastFailure = error
        }
        if let panelTime {
            let delay = clock.now() - panelTime
            delays[delayCount % delays.count] = delay
            delayCount += 1
            delayHistogram.record(Double(delay))
        }
    }

    /// The median and 99th percentile of the recent panel-to-clone delays, µs (status).
    var delayPercentiles: (p50: Microseconds, p99: Microseconds)? {
        guard delayCount > 0 else { return nil }
        let sorted = delays.prefix(min(delayCount, delays.count)).sorted()
        return (sorted[(sorted.count - 1) / 2], sorted[(sorted.count - 1) * 99 / 100])
    }
}

extension VirtualKeyboard: KeyboardOutput {}
