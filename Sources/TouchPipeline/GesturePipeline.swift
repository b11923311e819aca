import ConfigModel
import GestureControl
import GestureCore
import TouchInput

/// The one path every input takes, live or replayed: raw evdev events of each device ->
/// its `TouchNormalizer` -> the `FramePath` (the device's geometry, the frame stages, the
/// `GestureEngine`) -> one ordered stream of `PipelineOutput`s, of which what the
/// application sees also goes to each grabbed panel's `TouchEncoder`.
///
/// No I/O and no clock: the daemon feeds it from device fds and its timerfd, `gesturectl
/// replay` from a recording in virtual time. Everything a call produces (events, trace
/// records, contacts, health notices, runtime changes, the application's touches) waits in
/// one ordered stream until the caller drains it into its `PipelineSink` (`drain(into:)`,
/// GesturePipeline+Output.swift, where the order is kept).
public final class GesturePipeline {
    /// One attached device.
    public struct Device {
        public let id: DeviceID
        public let info: TouchDeviceInfo
        public let normalizer: TouchNormalizer
        /// Its mapping onto the screen, with the rule and calibration it came from.
        public var resolved: ResolvedMapping
        public var mapping: DeviceMapping { resolved.mapping }
        /// udev properties it was matched with (kept to remap it on reload).
        public let properties: [String: String]
    }

    public private(set) var configuration: Configuration
    /// Placement, stages and engine.
    public let path: FramePath
    /// The engine, to observe (trace, snapshot, touch delivery).
    public var engine: GestureEngine { path.engine }
    // `@exclusivity(unchecked)`: the pipeline is used from one thread only, and the runtime's
    // dynamic exclusivity checks on these properties cost part of every event (docs/BENCHMARKS.md).
    @exclusivity(unchecked) public private(set) var devices: [Device] = []
    /// Set while someone watches the contacts (`monitor --touches`): each frame's changed
    /// contacts are then outputs (`.contact`). Unset, it costs one branch per frame.
    @exclusivity(unchecked) public var reportsTouches = false
    /// Set while someone watches what the panels' stages filter (`monitor --touches`,
    /// `replay`): each filtered contact is then an output (`.filtered`).
    public var reportsFiltered: Bool {
        get { path.stages.health.recordsFiltered }
        set { path.setRecordsFiltered(newValue) }
    }
    /// The stream not yet drained, in order (GesturePipeline+Output.swift).
    @exclusivity(unchecked) var outputs: [PipelineOutput] = []
    /// How many of `outputs` the grabbed panels' clones have been sent (`forwardTouches`).
    @exclusivity(unchecked) var forwarded = 0
    /// The events of the step under way, before `collect` puts them in `outputs`.
    @exclusivity(unchecked) var events: [GestureEvent] = []
    /// The contacts of the frame under way, when `reportsTouches`.
    @exclusivity(unchecked) var touches: [TouchReport] = []
    /// Trace records, health notices and filtered contacts being moved into `outputs`, reused.
    @exclusivity(unchecked) var traceRecords: [TraceRecord] = []
    @exclusivity(unchecked) var notices: [HealthNotice] = []
    @exclusivity(unchecked) var filtered: [FilteredContact] = []
    /// Set while `collect` runs: a mode switch it performs leaves its events to it.
    @exclusivity(unchecked) var collecting = false
    /// Continuous gestures' `changed` at the display's pace, for the actions and subscribers
    /// that want it (`.paced` outputs); empty, it costs one branch per event.
    @exclusivity(unchecked) var pacer = ChangePacer()
    /// Set while someone wants every continuous gesture's `changed` at `[daemon] frame_rate`
    /// (a coalescing subscriber, `replay --coalesce`), not only the gestures whose actions do.
    public var pacesEvents = false {
        didSet { if pacesEvents != oldValue { pacer = ChangePacer(periods: pacedPeriods(), keeping: pacer) } }
    }
    private var nextDeviceID: UInt32 = 0
    /// Unadvertised events of devices since detached (see `unadvertisedEvents`).
    private var detachedUnadvertised = 0
    /// `devices[i].normalizer`, for `feed` to reach without reference counting on every
    /// event (a retain and release per event cost about a fifth of a frame); `devices` keeps
    /// each one alive while its entry is here.
    @exclusivity(unchecked) private var normalizers: [Unmanaged<TouchNormalizer>] = []
    /// Per device (indexed like `devices`), the output stage of a grabbed panel.
    @exclusivity(unchecked) var encoders: [TouchEncoder?] = []
    /// Touch changes drained from the engine, reused.
    @exclusivity(unchecked) var touchChanges: [TouchChange] = []
    /// The runtime changes in force (`perform`), over `configuration`; the engine runs its
    /// `effectiveModel()`.
    @exclusivity(unchecked) public internal(set) var runtime: RuntimeState
    /// Per gesture, the mode switches of its actions by state (`mode = "..."`); empty when
    /// no action switches modes, so `performModeActions` costs one branch.
    @exclusivity(unchecked) var modeActions: [[GestureState: ModeRequest]] = []

    public init(configuration: Configuration) {
        self.configuration = configuration
        runtime = RuntimeState(configuration: configuration)
        path = FramePath(model: configuration.model)
        modeActions = Self.modeSwitches(of: configuration)
        pacer = ChangePacer(periods: pacedPeriods())
        events.reserveCapacity(64)
        outputs.reserveCapacity(256)
    }

    /// Attaches a device with the mapping of the first `[[device]]` rule that matches it (and
    /// udev's calibration matrix when the rule sets none). Returns its id and a warning (no
    /// plausible units, an unreadable udev matrix), if any; nil when libmtdev cannot take a
    /// protocol-A device.
    public func addDevice(_ info: TouchDeviceInfo, properties: [String: String] = [:]) -> (id: DeviceID, warning: String?)? {
        let id = DeviceID(nextDeviceID)
        guard let normalizer = TouchNormalizer(device: id, info: info) else { return nil }
        nextDeviceID += 1
        let resolved = configuration.mapping(
            name: info.name, vendor: info.vendor, product: info.product,
            devnode: info.devnode, properties: properties)
        devices.append(Device(id: id, info: info, normalizer: normalizer, resolved: resolved, properties: properties))
        normalizers.append(Unmanaged.passUnretained(normalizer))
        encoders.append(nil)
        var warnings: [String] = []
        if let warning = path.attach(
            device: id, name: info.name, x: info.x, y: info.y, mapping: resolved.mapping,
            health: configuration.health(of: resolved))
        {
            warnings.append(warning.message)
        }
        if case .udevInvalid = resolved.calibrationSource {
            warnings.append("device '\(info.name)' (\(id)): calibration \(resolved.calibrationSource)")
        }
        return (id, warnings.isEmpty ? nil : warnings.joined(separator: "; "))
    }

    /// Ends the device's contacts as cancelled at `time` (their gestures cancel) and forgets it.
    public func removeDevice(_ id: DeviceID, at time: Microseconds) {
        guard let index = devices.firstIndex(where: { $0.id == id }) else { return }
        let normalizer = devices[index].normalizer
        if normalizer.cancelAll(at: time) { handle(normalizer.frame) }
        path.detach(device: id)
        detachedUnadvertised += normalizer.counters.unadvertised
        // Its clone lifts what the cancellation ended before the encoder goes.
        forwardTouches()
        encoders[index]?.releaseAll()
        encoders.remove(at: index)
        normalizers.remove(at: index)
        devices.remove(at: index)
    }

    /// Sends what the application sees of a device's touches through `encoder` (to its
    /// grabbed panel's virtual clone) from now on; nil stops. Touch delivery runs while any
    /// device has one. The encoder of a device that leaves lifts every contact it still has down.
    public func setEncoder(_ encoder: TouchEncoder?, for id: DeviceID) {
        guard let index = index(of: id) else { return }
        if encoder == nil { encoders[index]?.releaseAll() }
        encoders[index] = encoder
        let any = encoders.contains { $0 != nil }
        if any { touchChanges.reserveCapacity(64) }
        engine.touchDeliveryEnabled = any
    }

    /// Lifts every contact down on every virtual clone (shutdown).
    public func releaseForwarded() {
        for d in 0..<encoders.count { encoders[d]?.releaseAll() }
    }

    /// The encoder of a device, if its panel is grabbed.
    public func encoder(of id: DeviceID) -> TouchEncoder? { index(of: id).flatMap { encoders[$0] } }

    /// Feeds one raw event of a device; a completed frame goes through the engine.
    @inline(__always)
    public func feed(_ event: RawInputEvent, device index: Int) {
        // Underscored on purpose (docs/BENCHMARKS.md, "The performance corner"): the
        // supported `takeUnretainedValue()` retains and releases per event; `devices` keeps
        // the normalizer alive, the guarantee this call asks for.
        normalizers[index]._withUnsafeGuaranteedRef { normalizer in
            if normalizer.feed(event) {
                encoders[index]?.mirror(normalizer.frame)
                handle(normalizer.frame)
            }
        }
    }

    /// One completed frame through the engine (its contacts into `touches` when asked), then
    /// what it produced into the stream.
    @inline(__always)
    package func handle(_ frame: TouchFrame) {
        // What a caller did not advance to is due before the frame (as `VirtualReplay` does).
        if let paced = pacer.nextDeadline, paced < frame.time { advance(to: frame.time - 1) }
        path.handle(frame, into: &events)
        if reportsTouches { engine.forEachTouch { touches.append($0) } }
        endStep()
    }

    /// Events dropped since start because their device does not advertise their type or code.
    public var unadvertisedEvents: Int {
        detachedUnadvertised + devices.reduce(0) { $0 + $1.normalizer.counters.unadvertised }
    }

    /// The index of a device in `devices`, for `feed`.
    public func index(of id: DeviceID) -> Int? { devices.firstIndex { $0.id == id } }

    /// A device's touch health stage (its state, counts and masked spots, for `status`).
    public func health(of id: DeviceID) -> TouchHealth? { path.stages.health.health(of: id) }

    /// A device's geometry on the current screen.
    public func geometry(of id: DeviceID) -> DeviceGeometry? { path.geometry(of: id) }

    /// Fires the timers (the stages' and the engine's, and the end of a mode with `for`)
    /// due up to `time`, each at its own time and each a step of the stream.
    public func advance(to time: Microseconds) {
        // A mode's end first fires what was due before it.
        if let end = runtime.nextDeadline, end <= time { endMode(at: end) }
        advancePath(to: time)
    }

    /// The earliest time `advance` has work, or nil.
    public var nextDeadline: Microseconds? {
        let deadline: Microseconds? =
            switch (path.nextDeadline, runtime.nextDeadline) {
            case (let a?, let b?): min(a, b)
            case (let a, let b): a ?? b
            }
        guard let paced = pacer.nextDeadline else { return deadline }
        return deadline.map { min($0, paced) } ?? paced
    }

    /// Per gesture, the periods its `changed` is paced at: its actions', and `[daemon]
    /// frame_rate`'s for every continuous gesture while `pacesEvents`.
    func pacedPeriods() -> [[Microseconds]] {
        var periods = configuration.changedPeriods
        guard pacesEvents, let period = configuration.daemon.frameRate.period else { return periods }
        for g in periods.indices where configuration.model.gestures[g].type.isContinuous && !periods[g].contains(period) {
            periods[g].append(period)
        }
        return periods
    }

    /// Swaps in a new configuration between two frames: the engine keeps unchanged gestures
    /// running and cancels changed or removed ones; devices are remapped by the new rules.
    /// The runtime changes whose names still exist stay in force; the others, and a mode the
    /// new config no longer declares, are a runtime output, before the cancellations.
    /// Outputs up to this call's carry the previous model's indices (drain them with
    /// `previous`'s names before the next step). Returns what the reload dropped.
    @discardableResult
    public func reload(_ newConfiguration: Configuration, at time: Microseconds) -> RuntimeUpdate {
        advance(to: time)
        let rebased = runtime.rebase(onto: newConfiguration)
        var update = RuntimeUpdate(time: time)
        update.dropped = rebased.dropped
        update.mode = rebased.mode
        if !update.isEmpty { outputs.append(.runtime(update)) }
        path.replaceModel(runtime.effectiveModel(), at: time, into: &events)
        // The cancellations, under the previous config's names and mode switches; what was
        // waiting for its frame goes out with them.
        endStep()
        pacer.flushAll(at: time, into: &outputs)
        configuration = newConfiguration
        modeActions = Self.modeSwitches(of: newConfiguration)
        pacer = ChangePacer(periods: pacedPeriods())
        for i in devices.indices {
            let info = devices[i].info
            let resolved = newConfiguration.mapping(
                name: info.name, vendor: info.vendor, product: info.product,
                devnode: info.devnode, properties: devices[i].properties)
            devices[i].resolved = resolved
            path.attach(
                device: devices[i].id, name: info.name, x: info.x, y: info.y, mapping: resolved.mapping,
                health: newConfiguration.health(of: resolved), at: time)
        }
        return update
    }

    /// The end of a replayed recording: contacts still down end as cancelled at `time`, then
    /// time runs on until no deadline is pending (a single tap waiting for a double tap is
    /// still reported, at the time its timer fires; a mode with `for` ends).
    ///
    /// A daemon that stops (`panelTimers` false) runs out only the gestures' timers: the
    /// panels' own (a noisy panel's quiet time, its silence, a masked spot's release) and a
    /// mode's end would report, and run the actions of, changes that never happened.
    public func finish(at time: Microseconds, panelTimers: Bool = true) {
        for device in devices where device.normalizer.cancelAll(at: time) { handle(device.normalizer.frame) }
        advance(to: time)
        guard panelTimers else {
            while let deadline = path.engine.nextDeadline {
                path.engine.advance(to: deadline, into: &events)
                endStep()
            }
            return
        }
        while let deadline = nextDeadline {
            advance(to: deadline)
        }
    }
}
