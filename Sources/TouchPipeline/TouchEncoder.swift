import ConfigModel
import GestureCore
import TouchInput

/// The output stage for one grabbed panel: encodes, as evdev frames for its virtual clone,
/// exactly what the engine decided the application sees (`TouchChange`s), and hands each
/// frame to its `TouchSink` (the daemon writes it to uinput, in the loop iteration the
/// panel's frame was read, before actions are dispatched). No I/O and no clock here.
///
/// Virtual slots get their own tracking ids. A cancel is a palm for one frame and then a
/// release with `cancel = "palm"` (libinput: `TOUCH_CANCEL`) or when the panel itself
/// reported a palm, a plain release otherwise. A slot released in a frame takes no new
/// contact before that frame's `SYN_REPORT`: libinput takes a slot's lift and a new
/// tracking id in one frame as two touch-downs and ignores the new one.
/// `ABS_X`/`ABS_Y`/`BTN_TOUCH` follow the oldest contact down, as the kernel's own
/// pointer emulation does.
///
/// A panel switched to passthrough while fingers are on it is grabbed only once they lifted
/// (`GrabGate`): until then nothing goes to the clone, and contacts that went down before
/// the grab never do, since the application saw them on the panel itself.
public final class TouchEncoder {
    /// Whether the panel is grabbed yet.
    public enum Grab: Equatable, Sendable, CustomStringConvertible {
        /// Not yet: this many contacts are down on the panel, which the compositor saw go down.
        case waiting(contacts: Int)
        case taken

        /// As `status` shows it: "taken", "waiting for 2 contacts to lift".
        public var description: String {
            switch self {
            case .taken: "taken"
            case .waiting(let n): "waiting for \(Self.contacts(n)) to lift"
            }
        }

        /// "1 contact", "2 contacts".
        public static func contacts(_ n: Int) -> String { n == 1 ? "1 contact" : "\(n) contacts" }
    }

    public let device: DeviceID
    /// Where the frames go.
    public let sink: any TouchSink
    public let cancel: CancelMode
    public private(set) var grab: Grab
    /// Contacts shown, shown after being held back, and cancelled through this clone.
    public private(set) var passed = 0, delayed = 0, cancelled = 0
    /// Panel contacts with a smaller id went down before the grab: never forwarded.
    private var firstForwarded: Int32

    private struct Slot {
        /// The panel contact shown in it; -1: free.
        var contact: Int32 = -1
        var trackingID: Int32 = -1
        /// Shown as a palm this frame, released at the next.
        var palm = false
        /// Went down in the frame being written.
        var fresh = false
        /// Released in the frame being written (free again after its `SYN_REPORT`).
        var released = false
        var x: Int32 = 0, y: Int32 = 0
    }

    // `@exclusivity(unchecked)` on the state every frame touches: the pipeline's one thread
    // uses it, as the pipeline's own (a runtime access check per field use otherwise).
    @exclusivity(unchecked) private var slots: [Slot]
    /// The panel's latest contacts, each at its id modulo `remembered`: a touch held back is
    /// shown where the panel last had it, even after it lifted. The normalizer hands ids out
    /// in order, so an entry gives way to the contact `remembered` ids newer, the oldest, and
    /// a lookup is one index, not a search (it runs for every contact of every frame).
    @exclusivity(unchecked) private var recent: [Contact]
    private var nextTrackingID: Int32 = 0
    /// The slot `ABS_X`/`ABS_Y` follow; -1: none down.
    private var pointer = -1
    /// The frame being encoded (reused).
    @exclusivity(unchecked) private var pending: [RawInputEvent] = []
    /// Kernel time (CLOCK_MONOTONIC) of the panel's latest frame not yet flushed.
    private var frameTime: Microseconds?

    /// How many panel contacts it remembers: twice what the engine tracks at once.
    private static let remembered = 128

    /// `grab`: `.taken` with the panel already grabbed, forwarding contacts from
    /// `firstContact` on (`TouchNormalizer.nextContactID` then); `.waiting` until `grabbed`.
    public init(device: DeviceID, sink: any TouchSink, cancel: CancelMode, grab: Grab = .taken, firstContact: Int32 = 0) {
        self.device = device
        self.sink = sink
        self.cancel = cancel
        self.grab = grab
        firstForwarded = grab == .taken ? firstContact : .max
        slots = [Slot](repeating: Slot(), count: sink.slotCount)
        // A frame writes at most every slot's id, tool, position, pressure and size.
        pending.reserveCapacity(8 * sink.slotCount + 8)
        recent = [Contact](
            repeating: Contact(id: -1, slot: -1, phase: .ended, x: 0, y: 0, normalizedX: 0, normalizedY: 0),
            count: Self.remembered)
    }

    /// The panel now has `contacts` down and is not grabbed yet (status).
    public func waiting(contacts: Int) { grab = .waiting(contacts: contacts) }

    /// The panel was just grabbed: contacts from `firstContact` (the normalizer's
    /// `nextContactID` now) on are the application's through the clone.
    public func grabbed(firstContact: Int32) {
        grab = .taken
        firstForwarded = firstContact
    }

    /// Remembers the panel's contacts of one frame (raw positions, pressure, tool).
    func mirror(_ frame: TouchFrame) {
        frameTime = frame.time
        for i in 0..<frame.contacts.count {
            let contact = frame.contacts[i]
            recent[Self.recentSlot(contact.id)] = contact
        }
    }

    /// Writes one change (the frame goes out at `flush`). `panel`: the panel contact the
    /// change shows, when it is not the change's own id (a contact the health stage split
    /// off a jump goes on from the same panel contact, under an id of its own, on a slot
    /// and with a tracking id of its own).
    func apply(_ change: TouchChange, panel: Int32? = nil) {
        let source = panel ?? change.id
        guard source >= firstForwarded else { return }
        switch change.kind {
        case .began:
            guard let raw = recentIndex(source).map({ recent[$0] }) else { return }
            if let s = slotIndex(change.id) { return move(s, raw) }
            guard let s = freeSlot() else { return }
            slots[s] = Slot(contact: change.id, trackingID: nextTrackingID, palm: false, fresh: true, x: raw.x, y: raw.y)
            nextTrackingID = (nextTrackingID + 1) & 0xffff
            write(InputCodes.absMTSlot, Int32(s))
            // The tool before the tracking id: libinput reads the slot's tool type when the
            // tracking id arrives, and a slot last cancelled as a palm would make the new
            // touch a palm too (ignored to its end).
            write(InputCodes.absMTToolType, Self.tool(raw.toolType))
            write(InputCodes.absMTTrackingID, slots[s].trackingID)
            position(raw)
            passed += 1
            if change.delay > 0 { delayed += 1 }
            if pointer < 0 { pointer = s }
        case .moved:
            if let s = slotIndex(change.id), let raw = recentIndex(source).map({ recent[$0] }) { move(s, raw) }
        case .ended:
            guard let s = slotIndex(change.id) else { return }
            showDown(s)
            release(s)
        case .cancelled:
            guard let s = slotIndex(change.id) else { return }
            showDown(s)
            cancelled += 1
            // A contact the panel itself turned into a palm goes on as the panel said.
            let panelPalm = recentIndex(source).map { recent[$0].toolType == .palm } ?? false
            if cancel == .palm || panelPalm {
                write(InputCodes.absMTSlot, Int32(s))
                write(InputCodes.absMTToolType, Self.tool(.palm))
                slots[s].palm = true
            } else {
                release(s)
            }
        }
    }

    /// Ends the frame: `SYN_REPORT`, and for palms a second frame that releases them.
    func flush() {
        let frame = frameTime
        frameTime = nil
        guard !pending.isEmpty else { return }
        endFrame(answering: frame)
        guard slots.contains(where: \.palm) else { return }
        for s in slots.indices where slots[s].palm { release(s) }
        endFrame(answering: nil)
    }

    private func endFrame(answering panelTime: Microseconds?) {
        emulatePointer()
        write(InputCodes.evSyn, InputCodes.synReport, 0)
        sink.write(pending, answering: panelTime)
        pending.removeAll(keepingCapacity: true)
        for s in slots.indices {
            slots[s].fresh = false
            slots[s].released = false
        }
    }

    /// The first slot free since the frame being written began; when the only free ones
    /// were released in it, that frame goes out first (nil: every slot is down).
    private func freeSlot() -> Int? {
        var releasedHere = false
        for s in 0..<slots.count where slots[s].contact < 0 {
            if !slots[s].released { return s }
            releasedHere = true
        }
        guard releasedHere else { return nil }
        endFrame(answering: nil)
        return slots.firstIndex { $0.contact < 0 }
    }

    /// A contact that went down in the frame being written and ends now (a held touch
    /// shown with its lift, at once) gets that frame to itself first: a slot that begins and
    /// ends within one frame is no touch at all to libinput.
    private func showDown(_ s: Int) {
        if slots[s].fresh { endFrame(answering: nil) }
    }

    /// Lifts every contact still down on the clone (shutdown, reload, unplug): nothing is
    /// ever left down on it.
    func releaseAll() {
        for s in slots.indices where slots[s].contact >= 0 { release(s) }
        flush()
    }

    private func move(_ s: Int, _ raw: Contact) {
        guard !slots[s].palm else { return }
        write(InputCodes.absMTSlot, Int32(s))
        slots[s].x = raw.x
        slots[s].y = raw.y
        position(raw)
    }

    private func position(_ raw: Contact) {
        write(InputCodes.absMTPositionX, raw.x)
        write(InputCodes.absMTPositionY, raw.y)
        if sink.hasPressure, let pressure = raw.pressure { write(InputCodes.absMTPressure, pressure) }
        if sink.hasTouchMajor, let major = raw.touchMajor { write(InputCodes.absMTTouchMajor, major) }
    }

    private func release(_ s: Int) {
        write(InputCodes.absMTSlot, Int32(s))
        write(InputCodes.absMTTrackingID, -1)
        slots[s] = Slot()
        slots[s].released = true
        if pointer == s { pointer = slots.firstIndex { $0.contact >= 0 } ?? -1 }
    }

    /// `BTN_TOUCH`, `ABS_X`, `ABS_Y` (and `ABS_PRESSURE`) from the slots, for single-touch readers.
    private func emulatePointer() {
        write(InputCodes.evKey, InputCodes.btnTouch, pointer >= 0 ? 1 : 0)
        guard pointer >= 0 else { return }
        write(InputCodes.absX, slots[pointer].x)
        write(InputCodes.absY, slots[pointer].y)
    }

    private func write(_ code: UInt16, _ value: Int32) { write(InputCodes.evAbs, code, value) }

    private func write(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        pending.append(RawInputEvent(type: type, code: code, value: value, time: 0))
    }

    private func slotIndex(_ contact: Int32) -> Int? {
        for s in 0..<slots.count where slots[s].contact == contact { return s }
        return nil
    }

    private func recentIndex(_ contact: Int32) -> Int? {
        let k = Self.recentSlot(contact)
        return recent[k].id == contact && recent[k].slot >= 0 ? k : nil
    }

    private static func recentSlot(_ contact: Int32) -> Int { Int(UInt32(bitPattern: contact) % UInt32(remembered)) }

    private static func tool(_ type: ToolType) -> Int32 {
        switch type {
        case .finger: 0  // MT_TOOL_FINGER
        case .pen: 1  // MT_TOOL_PEN
        case .palm: 2  // MT_TOOL_PALM
        }
    }
}
