import GestureCore

/// Turns the raw evdev stream of one touch device into one `TouchFrame` per `SYN_REPORT`.
///
/// - Contacts come from `ABS_MT_TRACKING_ID` per slot (protocol B). Each new tracking id gets
///   a fresh contact id from this normalizer, so ids are never reused, even when a device
///   repeats or wraps its tracking ids.
/// - Slot 0 is current until the first `ABS_MT_SLOT`. `BTN_TOUCH` is ignored on MT devices.
///   A slot outside the device's range is counted and its events are ignored.
/// - Values persist per slot across contacts: a contact that arrives without X or Y keeps the
///   slot's last position (the kernel drops values equal to the previous ones).
/// - A new tracking id in an occupied slot ends the old contact and begins a new one. A
///   contact that begins and ends inside one frame appears twice in it: `began`, then `ended`.
/// - `ABS_MT_TOOL_TYPE` is tracked per slot like the other values, and may change mid-contact:
///   a contact the panel turns into a palm (`MT_TOOL_PALM`) keeps its id and phases, with
///   `toolType` `.palm` from that frame on. Frames say what the panel said; the pipeline
///   treats a palm as a cancelled touch (`TouchPipeline.PalmRejection`).
/// - `moved` means X or Y changed in the frame; other live contacts are `stationary`.
/// - After `SYN_DROPPED` (libevdev's sync mode: the events up to the next `SYN_REPORT`
///   describe the state after the gap) contacts that vanished end as `cancelled`.
/// - Protocol-A devices go through libmtdev first; single-touch devices (`ABS_X`/`ABS_Y` and
///   `BTN_TOUCH`) have one contact in slot 0.
///
/// The frame's contact buffer is allocated once, sized from the slot count: feeding events
/// does not allocate as long as the caller does not keep `frame.contacts` between calls.
public final class TouchNormalizer {
    /// What the normalizer had to work around; the daemon and `gesturectl` report them.
    public struct Counters: Equatable, Sendable {
        /// Frames produced.
        public var frames = 0
        /// `ABS_MT_SLOT` values outside the device's slots (their events were ignored).
        public var outOfRangeSlots = 0
        /// `SYN_DROPPED` events seen (the kernel's buffer overflowed).
        public var synDropped = 0
        /// Events whose type or code the device does not advertise (dropped unseen).
        public var unadvertised = 0
        /// Contacts that began and ended within one frame and were replaced in the same slot
        /// by another such contact before the frame ended: only the last one is reported.
        public var collapsedContacts = 0

        public init() {}
    }

    public let device: DeviceID
    public let info: TouchDeviceInfo
    // `@exclusivity(unchecked)`: a normalizer is used from one thread only, and the runtime's
    // dynamic exclusivity checks on these properties cost much of a frame (docs/BENCHMARKS.md).
    /// The last frame produced. Valid after `feed` or `cancelAll` returned true.
    @exclusivity(unchecked) public private(set) var frame: TouchFrame
    @exclusivity(unchecked) public private(set) var counters = Counters()

    @exclusivity(unchecked) private var slots: [SlotState]
    /// Index into `slots`, or -1 after an out-of-range `ABS_MT_SLOT`.
    @exclusivity(unchecked) private var currentSlot = 0
    /// The id the next new contact gets: contacts seen so far have smaller ones (until
    /// 2^31 contacts wrap it).
    @exclusivity(unchecked) public private(set) var nextContactID: Int32 = 0
    @exclusivity(unchecked) private var recovering = false
    private let advertised: AdvertisedEvents
    private let converter: MtdevConverter?
    private let isSingleTouch: Bool
    private let xAxis: AxisRange
    private let yAxis: AxisRange
    private let hasPressure: Bool
    private let hasTouchMajor: Bool

    /// Fails only when libmtdev cannot be set up for a protocol-A device.
    public init?(device: DeviceID, info: TouchDeviceInfo) {
        self.device = device
        self.info = info
        advertised = AdvertisedEvents(info.capabilities)
        let slotCount: Int
        switch info.multitouchProtocol {
        case .b:
            converter = nil
            slotCount = max(1, info.slotCount)
        case .a:
            guard let mtdev = MtdevConverter(capabilities: info.capabilities) else { return nil }
            converter = mtdev
            slotCount = MtdevConverter.slotCount
        case .singleTouch:
            converter = nil
            slotCount = 1
        }
        isSingleTouch = info.multitouchProtocol == .singleTouch
        xAxis = info.x
        yAxis = info.y
        hasPressure = info.hasPressure
        hasTouchMajor = info.hasTouchMajor
        slots = Array(repeating: SlotState(), count: slotCount)
        // Per slot at most: the old contact ended, one began-and-ended, the new one.
        var contacts: [Contact] = []
        contacts.reserveCapacity(slotCount * 4)
        frame = TouchFrame(device: device, time: 0, contacts: contacts)
    }

    /// Feeds one event. Returns true when it completed a frame, now in `frame`; a
    /// `SYN_REPORT` that leaves no contact live and ends none produces no frame. An event
    /// whose type or code the device does not advertise is counted and dropped first: every
    /// input path (device, recording, `--stream`) comes through here, and libmtdev indexes
    /// its tables by the raw code.
    public func feed(_ event: RawInputEvent) -> Bool {
        guard advertised.contains(type: event.type, code: event.code) else {
            counters.unadvertised += 1
            return false
        }
        guard let converter else { return apply(event) }
        if event.type == InputCodes.evSyn && event.code == InputCodes.synDropped {
            return apply(event)
        }
        converter.put(event)
        guard event.type == InputCodes.evSyn && event.code == InputCodes.synReport else { return false }
        var produced = false
        while let converted = converter.next() {
            if apply(converted) { produced = true }
        }
        return produced
    }

    /// Ends every live contact as `cancelled` (the device was removed, or the daemon lets go
    /// of it) and forgets the unfinished frame. Returns true when there was a contact to cancel.
    public func cancelAll(at time: Int64) -> Bool {
        frame.contacts.removeAll(keepingCapacity: true)
        frame.time = time
        for index in slots.indices {
            let slot = slots[index]
            if slot.liveID != SlotState.none {
                let values = slot.currentID == slot.liveID ? slot.values : slot.liveFinal
                append(id: slot.liveID, slot: index, phase: .cancelled, values)
            }
            slots[index] = SlotState()
            slots[index].values = slot.values
        }
        currentSlot = 0
        recovering = false
        guard !frame.contacts.isEmpty else { return false }
        counters.frames += 1
        return true
    }

    /// Starts from the device's state when it was opened, as libevdev read it
    /// (`EvdevDevice.prime`): the kernel sends a value only when it changes, so a contact
    /// that lands where the slot's previous one was arrives without X or Y, and events of
    /// the slot selected last arrive without `ABS_MT_SLOT`. Contacts down at that moment
    /// are not made live: they began unseen (`GrabGate` waits for them). Before any event.
    func prime(slot index: Int, x: Int32, y: Int32, pressure: Int32 = 0, touchMajor: Int32 = 0, toolType: Int32 = 0) {
        guard index >= 0 && index < slots.count else { return }
        slots[index].values = ContactValues(
            x: x, y: y, pressure: pressure, touchMajor: touchMajor, toolType: Self.toolType(toolType))
    }

    /// The slot the device selected last (see `prime(slot:...)`).
    func prime(currentSlot index: Int) {
        if index >= 0 && index < slots.count { currentSlot = index }
    }

    private func apply(_ event: RawInputEvent) -> Bool {
        switch event.type {
        case InputCodes.evSyn:
            if event.code == InputCodes.synReport { return endFrame(at: event.time) }
            if event.code == InputCodes.synDropped {
                recovering = true
                counters.synDropped += 1
            }
        case InputCodes.evAbs:
            if isSingleTouch { applySingleTouchAxis(event) } else { applyMTAxis(event) }
        case InputCodes.evKey:
            if isSingleTouch && event.code == InputCodes.btnTouch {
                setTrackingID(event.value != 0 ? 0 : SlotState.none, inSlot: 0)
            }
        default:
            break
        }
        return false
    }

    private func applyMTAxis(_ event: RawInputEvent) {
        if event.code == InputCodes.absMTSlot {
            if event.value >= 0 && Int(event.value) < slots.count {
                currentSlot = Int(event.value)
            } else {
                currentSlot = -1
                counters.outOfRangeSlots += 1
            }
            return
        }
        guard currentSlot >= 0 else { return }
        switch event.code {
        case InputCodes.absMTTrackingID: setTrackingID(event.value, inSlot: currentSlot)
        case InputCodes.absMTPositionX: setPosition(x: event.value, inSlot: currentSlot)
        case InputCodes.absMTPositionY: setPosition(y: event.value, inSlot: currentSlot)
        case InputCodes.absMTPressure: slots[currentSlot].values.pressure = event.value
        case InputCodes.absMTTouchMajor: slots[currentSlot].values.touchMajor = event.value
        case InputCodes.absMTToolType: slots[currentSlot].values.toolType = Self.toolType(event.value)
        default: break
        }
    }

    private func applySingleTouchAxis(_ event: RawInputEvent) {
        switch event.code {
        case InputCodes.absX: setPosition(x: event.value, inSlot: 0)
        case InputCodes.absY: setPosition(y: event.value, inSlot: 0)
        default: break
        }
    }

    private func setPosition(x: Int32? = nil, y: Int32? = nil, inSlot index: Int) {
        if let x, slots[index].values.x != x {
            slots[index].values.x = x
            slots[index].changed = true
        }
        if let y, slots[index].values.y != y {
            slots[index].values.y = y
            slots[index].changed = true
        }
    }

    /// A negative tracking id lifts the slot's contact; another one replaces it.
    private func setTrackingID(_ trackingID: Int32, inSlot index: Int) {
        let newTrackingID = trackingID < 0 ? SlotState.none : trackingID
        guard newTrackingID != slots[index].currentTrackingID else { return }
        let slot = slots[index]
        if slot.currentID != SlotState.none {
            if slot.currentID == slot.liveID {
                slots[index].liveFinal = slot.values
            } else {
                if slot.transientID != SlotState.none { counters.collapsedContacts += 1 }
                slots[index].transientID = slot.currentID
                slots[index].transientFinal = slot.values
            }
        }
        slots[index].currentTrackingID = newTrackingID
        if newTrackingID == SlotState.none {
            slots[index].currentID = SlotState.none
        } else {
            slots[index].currentID = nextContactID
            nextContactID = nextContactID == .max ? 0 : nextContactID + 1
        }
        slots[index].changed = false
    }

    private func endFrame(at time: Int64) -> Bool {
        frame.contacts.removeAll(keepingCapacity: true)
        frame.time = time
        let endPhase: TouchPhase = recovering ? .cancelled : .ended
        for index in slots.indices {
            let slot = slots[index]
            if slot.liveID != SlotState.none && slot.liveID != slot.currentID {
                append(id: slot.liveID, slot: index, phase: endPhase, slot.liveFinal)
            }
            if slot.transientID != SlotState.none {
                append(id: slot.transientID, slot: index, phase: .began, slot.transientFinal)
                append(id: slot.transientID, slot: index, phase: endPhase, slot.transientFinal)
            }
            if slot.currentID != SlotState.none {
                let phase: TouchPhase = slot.currentID != slot.liveID ? .began : (slot.changed ? .moved : .stationary)
                append(id: slot.currentID, slot: index, phase: phase, slot.values)
            }
            slots[index].liveID = slot.currentID
            slots[index].transientID = SlotState.none
            slots[index].changed = false
        }
        recovering = false
        guard !frame.contacts.isEmpty else { return false }
        counters.frames += 1
        return true
    }

    private func append(id: Int32, slot: Int, phase: TouchPhase, _ values: ContactValues) {
        frame.contacts.append(
            Contact(
                id: id, slot: Int32(slot), phase: phase, x: values.x, y: values.y,
                normalizedX: xAxis.normalize(values.x), normalizedY: yAxis.normalize(values.y),
                pressure: hasPressure ? values.pressure : nil,
                touchMajor: hasTouchMajor ? values.touchMajor : nil,
                toolType: values.toolType))
    }

    private static func toolType(_ value: Int32) -> ToolType {
        switch value {
        case 1: .pen
        case 2: .palm
        default: .finger
        }
    }
}
