import GestureCore
import LinuxSystem

/// Where pressed keys go: gestured's uinput keyboard in the daemon, a list in tests.
public protocol KeyboardOutput: AnyObject {
    /// The device node (`status`).
    var devnode: String { get }
    /// One frame of transitions, then `SYN_REPORT`, in one write.
    func write(_ keys: [(code: UInt16, down: Bool)]) throws(SystemError)
}

/// Which keys are down and why, and the frames that put them down and up: presses (down,
/// then up at once or after their delay), holds (down until their owner lets go), and the
/// watchdog that lets go of any key after `maximumHold`. A key two actions hold goes up
/// when the last lets go. Time comes only from the caller (`advance(to:)`); a write that
/// fails is counted, never retried (the next frame is tried).
public final class KeyPresser {
    /// Who holds a key: a continuous gesture's hold action, on one device.
    public struct Owner: Hashable, Sendable {
        public var gesture: Int
        public var device: DeviceID
        public init(gesture: Int, device: DeviceID) {
            self.gesture = gesture
            self.device = device
        }
    }

    private struct Hold {
        var owner: Owner?
        var chord: [UInt16]
        /// When the keys go up: a press's delay, or the watchdog's bound for a hold.
        var until: Microseconds
    }

    /// No key stays down longer than this, whatever holds it (docs/LIMITS.md).
    public static let maximumHold: Microseconds = 30_000_000

    public var output: (any KeyboardOutput)?
    /// How many actions hold each code down.
    private var downCount: [UInt16: Int] = [:]
    private var holds: [Hold] = []
    /// Frames written, and those whose write failed with the last failure (`status`).
    public private(set) var framesSent = 0
    public private(set) var failures = 0
    public private(set) var lastFailure: SystemError?
    /// Holds the watchdog ended.
    public private(set) var watchdogReleases = 0

    public init(output: (any KeyboardOutput)? = nil) { self.output = output }

    /// The chord down now; up at `now + delay`, or in the next frame when the delay is 0.
    public func press(_ chord: [UInt16], delay: Microseconds, at now: Microseconds) {
        put(chord, down: true)
        if delay > 0 {
            holds.append(Hold(owner: nil, chord: chord, until: now + delay))
        } else {
            put(chord, down: false)
        }
    }

    /// The chord down until `release(_:)` of its owner, or the watchdog.
    public func hold(_ chord: [UInt16], owner: Owner, at now: Microseconds) {
        put(chord, down: true)
        holds.append(Hold(owner: owner, chord: chord, until: now + Self.maximumHold))
    }

    /// Lets go of what `owner` holds.
    public func release(_ owner: Owner) {
        var i = 0
        while i < holds.count {
            if holds[i].owner == owner { put(holds.remove(at: i).chord, down: false) } else { i += 1 }
        }
    }

    /// Every key up now: holds and presses waiting for their delay (reload, stop).
    public func releaseAll() {
        while let last = holds.popLast() { put(last.chord, down: false) }
    }

    /// Ends the presses whose delay and the holds whose watchdog bound passed; returns the
    /// owners the watchdog let go of (to be logged).
    @discardableResult
    public func advance(to now: Microseconds) -> [Owner] {
        var expired: [Owner] = []
        var i = 0
        while i < holds.count {
            guard holds[i].until <= now else {
                i += 1
                continue
            }
            let hold = holds.remove(at: i)
            if let owner = hold.owner {
                expired.append(owner)
                watchdogReleases += 1
            }
            put(hold.chord, down: false)
        }
        return expired
    }

    /// When `advance(to:)` has something to do.
    public var nextDeadline: Microseconds? { holds.map(\.until).min() }

    /// The codes down now, ascending.
    public var down: [UInt16] { downCount.keys.sorted() }

    /// True while any key is down.
    public var holdsKeys: Bool { !holds.isEmpty }

    /// One frame: the chord's keys in order going down, in reverse going up; only those whose
    /// count crosses zero are written (a key another action holds stays down).
    private func put(_ chord: [UInt16], down: Bool) {
        var frame: [(code: UInt16, down: Bool)] = []
        for code in down ? chord : chord.reversed() {
            let count = downCount[code, default: 0]
            if down {
                downCount[code] = count + 1
                if count == 0 { frame.append((code, true)) }
            } else if count > 0 {
                downCount[code] = count == 1 ? nil : count - 1
                if count == 1 { frame.append((code, false)) }
            }
        }
        guard !frame.isEmpty, let output else { return }
        do {
            try output.write(frame)
            framesSent += 1
        } catch {
            failures += 1
            lastFailure = error
        }
    }
}

/// A step action's count: which step the gesture's value last reached, and how many presses
/// a new value makes (positive: forward, negative: back). Crossing a step forward from the
/// last one reached presses once; going back takes a whole step, so a value hovering at a
/// step presses once.
public struct KeySteps: Equatable, Sendable {
    public let size: Double
    public private(set) var level = 0
    /// At most this many presses for one event (a jump of the value by many steps).
    public static let maximumPerEvent = 16

    public init(size: Double) { self.size = size }

    /// The presses `value` makes, and the step it reaches.
    public mutating func presses(for value: Double) -> Int {
        var presses = 0
        while value >= Double(level + 1) * size, presses < Self.maximumPerEvent {
            level += 1
            presses += 1
        }
        while value <= Double(level - 1) * size, presses > -Self.maximumPerEvent {
            level -= 1
            presses -= 1
        }
        return presses
    }

    /// Back to step 0 (the gesture began again).
    public mutating func reset() { level = 0 }
}
