/// Identifies one input device for the lifetime of a daemon or of a replay.
/// Contacts are keyed by (device, touch id): one gesture never mixes devices.
public struct DeviceID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { "dev\(rawValue)" }
}

/// UIKit's touch phases (`UITouch.Phase`), as the normalizer assigns them per frame.
public enum TouchPhase: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case began, moved, stationary, ended, cancelled

    /// True for `ended` and `cancelled`: the contact is gone after this frame.
    @inlinable @inline(__always) public var isTerminal: Bool { self == .ended || self == .cancelled }

    public var description: String {
        switch self {
        case .began: "began"
        case .moved: "moved"
        case .stationary: "stationary"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }
}

/// `ABS_MT_TOOL_TYPE` as the kernel reports it (MT_TOOL_FINGER, MT_TOOL_PEN, MT_TOOL_PALM).
public enum ToolType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case finger, pen, palm

    public var description: String {
        switch self {
        case .finger: "finger"
        case .pen: "pen"
        case .palm: "palm"
        }
    }
}

/// One absolute axis as evdev describes it (`struct input_absinfo`).
public struct AxisRange: Equatable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }

    /// The values the axis reports, `maximum - minimum + 1` (libinput's `absinfo_range`); 0
    /// for an axis whose maximum is below its minimum.
    @inlinable public var valueCount: Double { max(0, Double(maximum) - Double(minimum) + 1) }

    /// Maps a device value to `0..<1` as libinput's `scale_axis` does: each of the
    /// `valueCount` values owns an equal cell and lands at its start, so the maximum is
    /// `1 - 1/valueCount`, on the panel, never on its far border. A value beyond the
    /// advertised range lands on the nearest edge's cell (panels report them: see
    /// docs/CONFIG.md, "Where a touch lands").
    @inlinable public func normalize(_ value: Int32) -> Double {
        guard maximum > minimum else { return 0 }
        let clamped = Swift.min(Swift.max(value, minimum), maximum)
        return (Double(clamped) - Double(minimum)) / valueCount
    }
}

/// One live contact in a frame.
public struct Contact: Equatable, Sendable {
    /// Stable for the contact's life and never reused while it is live (from `ABS_MT_TRACKING_ID`).
    public var id: Int32
    /// The evdev slot the contact occupies.
    public var slot: Int32
    public var phase: TouchPhase
    /// Position in device units.
    public var x: Int32
    public var y: Int32
    /// Position normalized to 0...1 from the device's axis ranges.
    public var normalizedX: Double
    public var normalizedY: Double
    /// `ABS_MT_PRESSURE`, when the device reports it.
    public var pressure: Int32?
    /// `ABS_MT_TOUCH_MAJOR`, when the device reports it.
    public var touchMajor: Int32?
    public var toolType: ToolType

    public init(
        id: Int32, slot: Int32, phase: TouchPhase, x: Int32, y: Int32,
        normalizedX: Double, normalizedY: Double,
        pressure: Int32? = nil, touchMajor: Int32? = nil, toolType: ToolType = .finger
    ) {
        self.id = id
        self.slot = slot
        self.phase = phase
        self.x = x
        self.y = y
        self.normalizedX = normalizedX
        self.normalizedY = normalizedY
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.toolType = toolType
    }
}

/// Every contact of one device at one `SYN_REPORT`.
///
/// The normalizer reuses the `contacts` buffer from frame to frame: consume a frame before
/// asking for the next one, and do not keep the array.
public struct TouchFrame: Sendable {
    public var device: DeviceID
    /// Kernel timestamp, microseconds on CLOCK_MONOTONIC (recordings: since their first event).
    public var time: Int64
    /// Live contacts plus those that ended or were cancelled in this frame.
    public var contacts: [Contact]

    public init(device: DeviceID, time: Int64, contacts: [Contact]) {
        self.device = device
        self.time = time
        self.contacts = contacts
    }
}
