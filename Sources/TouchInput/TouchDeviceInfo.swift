import GestureCore

/// How a device reports several contacts (Documentation/input/multi-touch-protocol.rst).
public enum MultitouchProtocol: String, Sendable {
    /// `ABS_MT_SLOT` with per-slot `ABS_MT_TRACKING_ID`.
    case b
    /// Anonymous contacts separated by `SYN_MT_REPORT`; converted to B through libmtdev.
    case a
    /// No MT axes: `ABS_X`/`ABS_Y` and `BTN_TOUCH` describe one contact.
    case singleTouch = "single-touch"
}

/// A touch device as the input layer sees it: identity, capabilities, and the summary the
/// normalizer and `gesturectl devices` need.
public struct TouchDeviceInfo: Equatable, Sendable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var capabilities: DeviceCapabilities
    /// `/dev/input/eventN` for a live device; nil for a recording.
    public var devnode: String?

    public init(
        name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        capabilities: DeviceCapabilities, devnode: String? = nil
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.capabilities = capabilities
        self.devnode = devnode
    }

    public var multitouchProtocol: MultitouchProtocol {
        if !hasMTPosition { return .singleTouch }
        return capabilities.hasAbs(InputCodes.absMTSlot) ? .b : .a
    }

    /// True when the device has `ABS_MT_POSITION_X` and `ABS_MT_POSITION_Y`.
    public var hasMTPosition: Bool {
        capabilities.hasAbs(InputCodes.absMTPositionX) && capabilities.hasAbs(InputCodes.absMTPositionY)
    }

    /// The X axis contacts are reported in: `ABS_MT_POSITION_X`, else `ABS_X`.
    public var x: AxisRange { axis(InputCodes.absMTPositionX, fallback: InputCodes.absX) }
    /// The Y axis contacts are reported in: `ABS_MT_POSITION_Y`, else `ABS_Y`.
    public var y: AxisRange { axis(InputCodes.absMTPositionY, fallback: InputCodes.absY) }

    /// The most slots gestured tracks per device. Panels have ten to a few dozen; the normalizer
    /// allocates per slot, so a device description claiming millions must not be believed.
    /// A recording or description that declares more is refused; a live device is clamped.
    public static let maximumSlots = 64

    /// `ABS_MT_SLOT`'s maximum + 1 for protocol B, at most `maximumSlots`; 0 for protocol A
    /// (libmtdev supplies slots) and 1 for a single-touch device.
    public var slotCount: Int { min(declaredSlotCount, Self.maximumSlots) }

    /// The slot count the device declares, unbounded (`slotCount` is what is used).
    public var declaredSlotCount: Int {
        switch multitouchProtocol {
        case .b:
            let slot = capabilities.absInfo[InputCodes.absMTSlot]
            return max(0, Int(slot?.maximum ?? 0) + 1)
        case .a: return 0
        case .singleTouch: return 1
        }
    }

    /// True when the device declares more than `maximumSlots` slots (the rest are ignored).
    public var slotsClamped: Bool { declaredSlotCount > Self.maximumSlots }

    public var hasPressure: Bool { capabilities.hasAbs(InputCodes.absMTPressure) }
    public var hasTouchMajor: Bool { capabilities.hasAbs(InputCodes.absMTTouchMajor) }
    public var hasToolType: Bool { capabilities.hasAbs(InputCodes.absMTToolType) }
    /// `INPUT_PROP_DIRECT`: the device is on a screen (touchscreen, not touchpad).
    public var isDirect: Bool { capabilities.properties.contains(InputCodes.propDirect) }

    /// A touchscreen by the kernel's own description: `INPUT_PROP_DIRECT` with MT positions,
    /// or what udev's `input_id` calls one (absolute positions and `BTN_TOUCH`, without the
    /// pen, finger-tool or mouse buttons of tablets, touchpads and mice), so that a panel
    /// that forgets the property (eGalax PCAP) still counts.
    public var isTouchscreen: Bool {
        if isDirect && hasMTPosition { return true }
        let caps = capabilities
        let hasPosition = hasMTPosition || (caps.hasAbs(InputCodes.absX) && caps.hasAbs(InputCodes.absY))
        guard hasPosition else { return false }
        if caps.hasKey(InputCodes.btnToolPen) || caps.hasKey(InputCodes.btnStylus) { return false }
        if caps.hasKey(InputCodes.btnToolFinger) && !isDirect { return false }
        if caps.hasKey(InputCodes.btnLeft) { return false }
        return isDirect || caps.hasKey(InputCodes.btnTouch)
    }

    private func axis(_ code: UInt16, fallback: UInt16) -> AxisRange {
        (capabilities.absInfo[code] ?? capabilities.absInfo[fallback])?.range ?? AxisRange(minimum: 0, maximum: 0)
    }
}
