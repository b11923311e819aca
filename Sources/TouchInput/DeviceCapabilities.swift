import GestureCore

/// One absolute axis with everything `struct input_absinfo` carries (the recording and
/// `evemu-device` need fuzz and flat; the normalizer only the range).
public struct AbsInfo: Equatable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    public var range: AxisRange { AxisRange(minimum: minimum, maximum: maximum, resolution: resolution) }
}

/// What a device can report: its input properties, its event codes per type, and its
/// absolute axes. Read from libevdev for a live device, from the N/I/P/B/A lines of a
/// recording otherwise.
public struct DeviceCapabilities: Equatable, Sendable {
    /// `INPUT_PROP_*` bits that are set.
    public var properties: Set<UInt16>
    /// The event types the device reports (`EV_SYN` always).
    public var types: Set<UInt16>
    /// Event type -> the codes the device reports for it (`EV_SYN` codes are implied).
    public var codes: [UInt16: Set<UInt16>]
    /// Absolute axis code -> its description; every `EV_ABS` code has one.
    public var absInfo: [UInt16: AbsInfo]

    public init(
        properties: Set<UInt16> = [], types: Set<UInt16> = [], codes: [UInt16: Set<UInt16>] = [:],
        absInfo: [UInt16: AbsInfo] = [:]
    ) {
        self.properties = properties
        self.types = types.union(codes.keys).union([InputCodes.evSyn])
        self.codes = codes
        self.absInfo = absInfo
    }

    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func hasAbs(_ code: UInt16) -> Bool { has(type: InputCodes.evAbs, code: code) }
    public func hasKey(_ code: UInt16) -> Bool { has(type: InputCodes.evKey, code: code) }

    /// Adds a code (and its type); `info` is required for `EV_ABS` codes.
    public mutating func enable(type: UInt16, code: UInt16, info: AbsInfo? = nil) {
        types.insert(type)
        codes[type, default: []].insert(code)
        if type == InputCodes.evAbs, let info { absInfo[code] = info }
    }
}
