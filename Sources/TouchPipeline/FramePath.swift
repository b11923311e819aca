import GestureCore

/// The pipeline after the normalizers: each frame is placed on the screen at the boundary
/// (device units to screen px and mm, by its device's `DeviceGeometry`), goes through the
/// `FrameStages` in order, then into the `GestureEngine`. `GesturePipeline` feeds it the
/// normalizers' frames; tests feed it frames they build. Nothing else gives the engine
/// contacts.
///
/// No I/O and no clock: time comes with frames and `advance(to:)`. After `attach`, a frame
/// allocates nothing.
public final class FramePath {
    /// One attached device: what its geometry is made of, and the geometry on the current
    /// model's screen.
    private struct Placement {
        let id: DeviceID
        let name: String
        let x: AxisRange
        let y: AxisRange
        let mapping: DeviceMapping
        /// Its `[device.health]` settings.
        let health: TouchHealthSettings
        var geometry: DeviceGeometry
    }

    // `@exclusivity(unchecked)`: used from one thread only, on the per-frame path (docs/BENCHMARKS.md).
    /// The engine, to observe (model, trace, snapshot, touch delivery); frames reach it only
    /// through this path.
    public let engine: GestureEngine
    @exclusivity(unchecked) public private(set) var stages = FrameStages()
    @exclusivity(unchecked) private var placements: [Placement] = []
    /// The frame being placed and staged (its buffer reused).
    @exclusivity(unchecked) private var frame = ScreenFrame(device: DeviceID(0), time: 0, contacts: [])

    public init(model: GestureModel) {
        engine = GestureEngine(model: model)
        // A normalizer frame holds at most three contacts per slot (an end, a touch shorter
        // than a frame, a begin) of at most `TouchDeviceInfo.maximumSlots`.
        frame.contacts.reserveCapacity(192)
    }

    /// Attaches (or re-attaches, after a remapping) a device with its axes and mapping.
    /// Returns a warning when its distances fall back to 1 pt = 1 px.
    @discardableResult
    public func attach(
        device: DeviceID, name: String, x: AxisRange, y: AxisRange, mapping: DeviceMapping,
        health: TouchHealthSettings = TouchHealthSettings(), at time: Microseconds = 0
    ) -> DeviceUnitsWarning? {
        let geometry = DeviceGeometry(screen: engine.model.screen, x: x, y: y, mapping: mapping)
        let placement = Placement(id: device, name: name, x: x, y: y, mapping: mapping, health: health, geometry: geometry)
        if let d = placementIndex(device) {
            placements[d] = placement
        } else {
            placements.append(placement)
        }
        engine.attach(device: device, name: name, geometry: geometry)
        stages.health.attach(device: device, settings: health, geometry: geometry, at: time)
        return DeviceUnitsWarning(device: device, name: name, x: x, y: y, geometry: geometry)
    }

    /// Forgets a device (its contacts still down are cancelled at the engine's next step).
    public func detach(device: DeviceID) {
        if let d = placementIndex(device) { placements.remove(at: d) }
        stages.detach(device: device)
        engine.detach(device: device)
    }

    /// Takes `[idle] after` (nil: no idle rule) at `time` (`IdleStage.configure`).
    func configureIdle(after: Microseconds?, at time: Microseconds?) { stages.idle.configure(after: after, at: time) }

    /// Moves the idle stage's changes into `list`.
    func drainIdle(into list: inout [IdleChange]) { stages.idle.drain(into: &list) }

    /// Whether the health stages record the contacts they filter (`GesturePipeline.reportsFiltered`).
    func setRecordsFiltered(_ on: Bool) { stages.health.recordsFiltered = on }

    /// The geometry of an attached device on the current screen.
    public func geometry(of device: DeviceID) -> DeviceGeometry? { placementIndex(device).map { placements[$0].geometry } }

    /// One frame of a device: placed, staged, handled by the engine (stage deadlines due
    /// before it fire first).
    @inline(__always)
    public func handle(_ input: TouchFrame, into events: inout [GestureEvent]) {
        stages.idle.start(at: input.time)
        if let deadline = stages.nextDeadline, deadline <= input.time { advanceStages(to: input.time, into: &events) }
        place(input)
        stages.process(&frame)
        engine.handle(frame, into: &events)
    }

    /// Fires every deadline up to `time`, the stages' and the engine's, each at its own time.
    public func advance(to time: Microseconds, into events: inout [GestureEvent]) {
        stages.idle.start(at: time)
        advanceStages(to: time, into: &events)
        engine.advance(to: time, into: &events)
    }

    /// The earliest time `advance` has work, or nil.
    public var nextDeadline: Microseconds? {
        switch (stages.nextDeadline, engine.nextDeadline) {
        case (let a?, let b?): min(a, b)
        case (let a, let b): a ?? b
        }
    }

    /// Swaps the engine's model (`GestureEngine.replaceModel`) and places every device on
    /// the new model's screen.
    public func replaceModel(_ model: GestureModel, at time: Microseconds, into events: inout [GestureEvent]) {
        advanceStages(to: time, into: &events)
        engine.replaceModel(model, at: time, into: &events)
        for d in placements.indices {
            let p = placements[d]
            placements[d].geometry = DeviceGeometry(screen: model.screen, x: p.x, y: p.y, mapping: p.mapping)
            engine.attach(device: p.id, name: p.name, geometry: placements[d].geometry)
            stages.health.attach(device: p.id, settings: p.health, geometry: placements[d].geometry, at: time)
        }
    }

    /// Stage deadlines up to `time`, in order; each stage's frame goes on to the engine.
    private func advanceStages(to time: Microseconds, into events: inout [GestureEvent]) {
        while let deadline = stages.nextDeadline, deadline <= time {
            if stages.expire(at: deadline, into: &frame) { engine.handle(frame, into: &events) }
        }
    }

    /// The boundary: `input` in screen px and mm, into `frame`.
    @inline(__always)
    private func place(_ input: TouchFrame) {
        let d = placementIndex(input.device) ?? attachUnknown(input.device)
        let geometry = placements[d].geometry
        frame.device = input.device
        frame.time = input.time
        frame.contacts.removeAll(keepingCapacity: true)
        for i in 0..<input.contacts.count {
            frame.contacts.append(geometry.place(input.contacts[i]))
        }
    }

    /// A device never attached gets 1 pt = 1 px units over the whole screen.
    private func attachUnknown(_ device: DeviceID) -> Int {
        let unknown = AxisRange(minimum: 0, maximum: 0)
        attach(device: device, name: "", x: unknown, y: unknown, mapping: .identity)
        return placements.count - 1
    }

    @inline(__always) private func placementIndex(_ device: DeviceID) -> Int? {
        for d in 0..<placements.count where placements[d].id == device { return d }
        return nil
    }
}
