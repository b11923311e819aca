import GestureCore

/// Builds the frames a touchscreen would send, from down/move/up per touch id at times.
///
/// Positions are given in screen px of `screen`; the device reports `unitsPerPixel` units
/// per px with `resolution` units per mm, so tests choose physical geometry explicitly.
/// Every frame lists every live contact (moved, or stationary when untouched), like the
/// normalizer's frames. Calls at the time of the last frame add to it.
public struct FrameBuilder {
    public let device: DeviceID
    public let screen: ScreenSize
    public let x: AxisRange
    public let y: AxisRange
    private let unitsPerPixel: Double
    private var live: [Int32: Contact] = [:]
    public private(set) var frames: [TouchFrame] = []

    /// `resolution` 40 with `unitsPerPixel` 10 makes 1 px = 0.25 mm.
    public init(
        device: DeviceID = DeviceID(1), screen: ScreenSize = ScreenSize(width: 1000, height: 600),
        unitsPerPixel: Double = 10, resolution: Int32 = 40
    ) {
        self.device = device
        self.screen = screen
        self.unitsPerPixel = unitsPerPixel
        // `unitsPerPixel` values per px: the axis' values fill the screen exactly (each owns a
        // cell, as the normalizer maps them), so a position in px comes back unchanged.
        x = AxisRange(minimum: 0, maximum: Int32(screen.width * unitsPerPixel) - 1, resolution: resolution)
        y = AxisRange(minimum: 0, maximum: Int32(screen.height * unitsPerPixel) - 1, resolution: resolution)
    }

    /// Millimetres per screen px of this geometry (when the resolution is plausible).
    public var millimetersPerPixel: Double { unitsPerPixel / Double(x.resolution) }

    public mutating func down(_ id: Int32, x px: Double, y py: Double, at time: Int64, tool: ToolType = .finger) {
        let used = Set(live.values.map(\.slot))
        let slot = (0...).first { !used.contains(Int32($0)) }!
        set(
            Contact(id: id, slot: Int32(slot), phase: .began, x: 0, y: 0, normalizedX: 0, normalizedY: 0, toolType: tool),
            x: px, y: py, at: time)
    }

    public mutating func move(_ id: Int32, x px: Double, y py: Double, at time: Int64) {
        guard var contact = live[id] else { preconditionFailure("move of touch \(id), which is not down") }
        contact.phase = .moved
        set(contact, x: px, y: py, at: time)
    }

    public mutating func up(_ id: Int32, at time: Int64) { finish(id, .ended, at: time) }

    /// The panel reports a live touch's tool type anew (`ABS_MT_TOOL_TYPE`), without moving it.
    public mutating func tool(_ id: Int32, _ tool: ToolType, at time: Int64) {
        guard live[id] != nil else { preconditionFailure("tool of touch \(id), which is not down") }
        live[id]?.toolType = tool
        frame(at: time)  // lists every live contact
        let last = frames.count - 1
        for i in frames[last].contacts.indices where frames[last].contacts[i].id == id { frames[last].contacts[i].toolType = tool }
    }

    public mutating func cancel(_ id: Int32, at time: Int64) { finish(id, .cancelled, at: time) }

    /// A stationary frame at `time` (time passes with contacts held).
    public mutating func hold(at time: Int64) { frame(at: time) }

    /// Down, then up `duration` later, without moving.
    public mutating func tap(_ id: Int32, x px: Double, y py: Double, at time: Int64, duration: Int64 = 80_000) {
        down(id, x: px, y: py, at: time)
        up(id, at: time + duration)
    }

    /// Moves `id` (already down) in a straight line to (toX, toY) over `duration` µs in `steps`
    /// frames.
    public mutating func drag(_ id: Int32, toX: Double, toY: Double, from time: Int64, duration: Int64, steps: Int) {
        guard let start = live[id] else { preconditionFailure("drag of touch \(id), which is not down") }
        let (x0, y0) = (Double(start.x) / unitsPerPixel, Double(start.y) / unitsPerPixel)
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            move(id, x: x0 + (toX - x0) * f, y: y0 + (toY - y0) * f, at: time + duration * Int64(step) / Int64(steps))
        }
    }

    /// The current position of a live touch, px.
    public func position(_ id: Int32) -> (x: Double, y: Double)? {
        live[id].map { (Double($0.x) / unitsPerPixel, Double($0.y) / unitsPerPixel) }
    }

    private mutating func finish(_ id: Int32, _ phase: TouchPhase, at time: Int64) {
        guard var contact = live[id] else { preconditionFailure("lift of touch \(id), which is not down") }
        contact.phase = phase
        put(contact, at: time)
        live[id] = nil
    }

    private mutating func set(_ contact: Contact, x px: Double, y py: Double, at time: Int64) {
        var c = contact
        c.x = Int32((px * unitsPerPixel).rounded())
        c.y = Int32((py * unitsPerPixel).rounded())
        c.normalizedX = x.normalize(c.x)
        c.normalizedY = y.normalize(c.y)
        live[c.id] = c
        put(c, at: time)
    }

    /// Writes `contact` into the frame at `time`, opening that frame if needed.
    private mutating func put(_ contact: Contact, at time: Int64) {
        frame(at: time)
        var last = frames.removeLast()
        if let i = last.contacts.firstIndex(where: { $0.id == contact.id }) {
            // A contact that began in this frame stays `began` when it also moves in it.
            let began = last.contacts[i].phase == .began && contact.phase == .moved
            last.contacts[i] = contact
            if began { last.contacts[i].phase = .began }
        } else {
            last.contacts.append(contact)
        }
        frames.append(last)
    }

    private mutating func frame(at time: Int64) {
        if let last = frames.last {
            precondition(time >= last.time, "frames must be built in time order")
            if last.time == time { return }
        }
        let stationary = live.values.sorted { $0.slot < $1.slot }.map { c -> Contact in
            var s = c
            s.phase = .stationary
            return s
        }
        frames.append(TouchFrame(device: device, time: time, contacts: stationary))
    }
}
