import ActionDispatch
import GestureControl
import GestureCore
import Logging
import SystemLoop
import TouchInput
import TouchPipeline

#if canImport(Glibc)
import Glibc
#endif

/// Live touchscreens: the ones udev lists at start and those hotplugged later, each opened
/// through libevdev and attached to the pipeline. A device that is unplugged (or fails)
/// is detached at once, which cancels its gestures.
final class LiveInput: InputSource {
    private final class Opened {
        let device: EvdevDevice
        let id: DeviceID
        /// As udev reported it, to leave it alone after a reload that ignores it.
        let discovered: DiscoveredDevice
        /// Set while passthrough waits for the panel's contacts to lift before it grabs.
        var gate: GrabGate?
        /// Writes the clone's frames while the panel is in passthrough.
        var forwarder: TouchForwarder?
        init(device: EvdevDevice, id: DeviceID, discovered: DiscoveredDevice) {
            self.device = device
            self.id = id
            self.discovered = discovered
        }

        /// What its journal entries say of it (name, node, udev's ID_PATH).
        var panel: JournalPanel {
            JournalPanel(name: device.info.name, path: device.path, properties: discovered.properties)
        }
    }

    private let loop: EventLoop
    private let pipeline: GesturePipeline
    private let logger: Logger
    private let monitor: UdevMonitor?
    private var opened: [String: Opened] = [:]
    /// Devices that could not be used, by devnode: name and the error with its fix.
    private var failures: [String: (name: String, error: String)] = [:]
    /// Touchscreens a `[[device]]` rule with `ignore = true` matches, by devnode, with
    /// the rule's index: not opened, and opened once a reload stops ignoring them.
    private var ignored: [String: (device: DiscoveredDevice, rule: Int)] = [:]
    // Reused by every read so that serving a device allocates nothing.
    private var buffer: [RawInputEvent] = []

    /// Watches udev for hotplug first (so that nothing plugged in meanwhile is missed),
    /// then opens every touchscreen present. Without udev (a container) it still opens
    /// nothing and says why; the daemon keeps running.
    init(loop: EventLoop, pipeline: GesturePipeline, logger: Logger) {
        self.loop = loop
        self.pipeline = pipeline
        self.logger = logger
        buffer.reserveCapacity(512)
        var present: [DiscoveredDevice] = []
        var monitor: UdevMonitor?
        do {
            let discovery = try TouchscreenDiscovery()
            do {
                monitor = try discovery.monitor()
            } catch {
                logger.warning("input: no hotplug (touchscreens plugged in later are not seen): \(error)")
            }
            present = try discovery.touchscreens()
        } catch {
            logger.error("input: cannot list input devices through udev: \(error)")
        }
        self.monitor = monitor
        if let monitor {
            do {
                try loop.register(fd: monitor.fd) { [unowned self] _ in self.hotplug() }
            } catch {
                logger.warning("input: cannot watch udev for hotplug: \(error)")
            }
        }
        for device in present { open(device) }
        if opened.isEmpty { logger.notice("input: \(LiveInput.waitingMessage)") }
    }

    static let waitingMessage = "no touchscreen yet; waiting for one to be plugged in"

    func drain() {
        for (_, device) in opened { read(device) }
    }

    func path(of device: DeviceID) -> String? { opened.first { $0.value.id == device }?.key }

    func forwarder(of device: DeviceID) -> TouchForwarder? { opened.first { $0.value.id == device }?.value.forwarder }

    var unusable: [UnusableDevice] {
        let ignoring = ignored.mapValues { (name: $0.device.info.name, error: "left alone: device[\($0.rule)] has ignore = true") }
        return failures.merging(ignoring) { failure, _ in failure }.sorted { $0.key < $1.key }.map {
            UnusableDevice(path: $0.key, name: $0.value.name, error: $0.value.error)
        }
    }

    /// After a reload: closes the touchscreens the new rules ignore, opens those they no
    /// longer ignore, and grabs or gives back each panel as its rule's `passthrough` now says.
    func configurationChanged() {
        for (path, entry) in opened where ignoringRule(for: entry.discovered) != nil {
            close(entry, path: path)
            open(entry.discovered)
        }
        for (_, entry) in ignored where ignoringRule(for: entry.device) == nil {
            open(entry.device)
        }
        for (_, entry) in opened { applyPassthrough(entry) }
    }

    /// The index of the `[[device]]` rule that has gestured ignore `device`, if it does.
    private func ignoringRule(for device: DiscoveredDevice) -> Int? {
        let configuration = pipeline.configuration
        let info = device.info
        guard
            let rule = configuration.rule(
                name: info.name, vendor: info.vendor, product: info.product,
                devnode: device.devnode, properties: device.properties),
            configuration.devices[rule].ignore
        else { return nil }
        return rule
    }

    private func hotplug() {
        while let event = monitor?.receive() {
            switch event {
            case .added(let device):
                guard device.isTouchscreen, opened[device.devnode] == nil, !isOwnClone(device.devnode) else { continue }
                logger.info("input: touchscreen added: \(device.devnode) \"\(device.info.name)\"")
                open(device)
            case .removed(let devnode):
                failures[devnode] = nil
                ignored[devnode] = nil
                if let device = opened[devnode] {
                    logger.info("input: touchscreen removed: \(devnode)", metadata: .journal(.panelRemoved, panel: device.panel))
                    close(device, path: devnode)
                }
            }
        }
    }

    /// This instance's own clones, known before udev has even seen their phys.
    private func isOwnClone(_ devnode: String) -> Bool {
        opened.values.contains { $0.forwarder?.virtual.devnode == devnode }
    }

    private func open(_ discovered: DiscoveredDevice) {
        let path = discovered.devnode
        if isOwnClone(path) { return }
        ignored[path] = nil
        if let rule = ignoringRule(for: discovered) {
            ignored[path] = (discovered, rule)
            failures[path] = nil
            logger.notice("input: leaving \(path) \"\(discovered.info.name)\" alone: device[\(rule)] has ignore = true")
            return
        }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: path)
        } catch {
            return fail(discovered, "\(error)")
        }
        // A clone gestured (this one or another instance) forwards touches to: never read.
        if VirtualTouchscreen.isVirtual(phys: device.phys) {
            return logger.debug("input: \(path) is a gestured virtual touchscreen; not used")
        }
        guard let (id, warning) = pipeline.addDevice(device.info, properties: discovered.properties) else {
            return fail(discovered, "libmtdev cannot convert this protocol-A device")
        }
        if let warning { logger.warning("input: \(warning)") }
        if let index = pipeline.index(of: id) { device.prime(pipeline.devices[index].normalizer) }
        if device.info.slotsClamped {
            logger.warning(
                "input: \(path) \"\(device.info.name)\" declares \(device.info.declaredSlotCount) slots; using the first \(TouchDeviceInfo.maximumSlots)"
            )
        }
        let entry = Opened(device: device, id: id, discovered: discovered)
        do {
            try loop.register(fd: device.fd) { [unowned self, unowned entry] _ in self.read(entry) }
        } catch {
            pipeline.removeDevice(id, at: loop.now())
            return fail(discovered, "\(error)")
        }
        opened[path] = entry
        failures[path] = nil
        let kind = device.info.multitouchProtocol.rawValue
        logger.info(
            "input: using \(path) \"\(device.info.name)\" (protocol \(kind), \(device.info.slotCount) slots)",
            metadata: .journal(.panelAdded, panel: entry.panel))
        applyPassthrough(entry)
    }

    /// Grabs the panel and forwards to a virtual clone when its `[[device]]` rule says
    /// `passthrough = true`, or gives it back when it no longer does (a reload). Without
    /// a clone the panel is never grabbed: gestured never takes touches it cannot pass on.
    private func applyPassthrough(_ entry: Opened) {
        let info = entry.device.info
        let configuration = pipeline.configuration
        let rule = configuration.mapping(
            name: info.name, vendor: info.vendor, product: info.product, devnode: info.devnode,
            properties: entry.discovered.properties
        ).rule.map { configuration.devices[$0] }
        let wanted = rule?.passthrough ?? false
        let current = pipeline.encoder(of: entry.id)
        if let current, wanted, current.cancel == rule?.cancel { return }
        if let current {
            pipeline.setEncoder(nil, for: entry.id)
            entry.forwarder = nil
            entry.gate = nil
            if current.grab == .taken {
                entry.device.ungrab()
                logger.notice("input: \(entry.device.path) given back (passthrough off)")
            } else {
                logger.notice("input: \(entry.device.path): passthrough off before its grab was taken")
            }
        }
        guard wanted, let rule else { return }
        let clone: VirtualTouchscreen
        do {
            clone = try VirtualTouchscreen(cloning: info)
        } catch {
            let path = entry.device.path
            return logger.error(
                "input: \(path): passthrough: cannot create the virtual touchscreen: \(error); the panel stays ungrabbed and applications get every touch"
            )
        }
        let gate = entry.device.grabGate()
        let forwarder = TouchForwarder(virtual: clone, clock: loop.clock)
        pipeline.setEncoder(
            TouchEncoder(device: entry.id, sink: forwarder, cancel: rule.cancel, grab: .waiting(contacts: gate.contactsDown)),
            for: entry.id)
        entry.forwarder = forwarder
        entry.gate = gate
        if !gate.open {
            logger.notice(
                "input: \(entry.device.path): passthrough: the grab waits for \(TouchEncoder.Grab.contacts(gate.contactsDown)) to lift (the compositor saw them go down on the panel; grabbed now, they would stay down for it); touches for applications will go to \(clone.devnode)"
            )
        }
        grabIfFree(entry)
    }

    /// Takes the grab a passthrough panel waits for once its gate is open (no contact down,
    /// at a frame boundary), then forwards the contacts that go down from then on.
    private func grabIfFree(_ entry: Opened) {
        guard let gate = entry.gate, let encoder = pipeline.encoder(of: entry.id), let forwarder = entry.forwarder,
            let index = pipeline.index(of: entry.id)
        else { return }
        guard gate.open else { return encoder.waiting(contacts: gate.contactsDown) }
        entry.gate = nil
        let path = entry.device.path
        do {
            try entry.device.grab()
        } catch {
            pipeline.setEncoder(nil, for: entry.id)
            entry.forwarder = nil
            return logger.error("input: \(path): passthrough: \(error); the panel stays ungrabbed")
        }
        encoder.grabbed(firstContact: pipeline.devices[index].normalizer.nextContactID)
        logger.notice(
            "input: \(path) grabbed; touches for applications go to \(forwarder.virtual.devnode) (cancel = \(encoder.cancel.rawValue))",
            metadata: .journal(.panelGrabbed, panel: entry.panel))
    }

    private func fail(_ discovered: DiscoveredDevice, _ error: String) {
        let path = discovered.devnode
        failures[path] = (discovered.info.name, error)
        logger.error(
            "input: cannot use \(path) \"\(discovered.info.name)\": \(error)",
            metadata: .journal(
                .panelUnusable, panel: JournalPanel(name: discovered.info.name, path: path, properties: discovered.properties)))
    }

    private func read(_ entry: Opened) {
        buffer.removeAll(keepingCapacity: true)
        let result: EvdevDevice.ReadResult
        do {
            result = try entry.device.read(into: &buffer)
        } catch {
            feed(entry)
            logger.error("input: \(error); closing it")
            return close(entry, path: entry.device.path)
        }
        feed(entry)
        if result == .removed {
            logger.info("input: \(entry.device.path) is gone", metadata: .journal(.panelRemoved, panel: entry.panel))
            close(entry, path: entry.device.path)
        }
    }

    private func feed(_ entry: Opened) {
        guard !buffer.isEmpty, let index = pipeline.index(of: entry.id) else { return }
        for i in 0..<buffer.count { pipeline.feed(buffer[i], device: index) }
        // Decided once every pending event is read: a touch that went down after the last
        // lift, but before this read, reached the compositor too.
        if entry.gate != nil {
            for i in 0..<buffer.count { entry.gate?.feed(buffer[i]) }
            grabIfFree(entry)
        }
    }

    /// Detaches a device: its contacts end as cancelled now, so do its gestures.
    private func close(_ entry: Opened, path: String) {
        loop.unregister(fd: entry.device.fd)
        pipeline.removeDevice(entry.id, at: loop.now())
        opened[path] = nil
        if opened.isEmpty { logger.notice("input: \(LiveInput.waitingMessage)") }
    }
}
