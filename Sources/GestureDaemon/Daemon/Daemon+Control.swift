import ActionDispatch
import GestureConfig
import GestureControl
import GestureCore
import TouchPipeline

#if canImport(Glibc)
import Glibc
#endif

/// The control socket's commands, answered from the daemon's live state (schema in
/// docs/PROTOCOL.md).
extension Daemon: ControlHandler {
    /// The daemon's status, filled from its parts: each renders its own section.
    func statusValue() -> DaemonStatus {
        let now = loop.now()
        let model = pipeline.configuration.model
        let snapshot = pipeline.engine.snapshot()
        var status = DaemonStatus()
        status.version = GesturedVersion.current
        status.pid = Int(getpid())
        status.uptime = uptimeSeconds(now, origin: origin)
        status.startTime = startTime
        status.config = reloads.status(path: options.configPath, files: pipeline.configuration.files, origin: origin)
        status.config.metricsInterval = Double(pipeline.configuration.daemon.metricsInterval) / 1_000_000
        status.devices = deviceList(detailed: false, at: now)
        status.unusableDevices = input.unusable
        status.engine[EngineMetrics.droppedContacts] = Double(snapshot.droppedContacts)
        status.engine[EngineMetrics.engineBugs] = Double(snapshot.engineBugs)
        status.replay = replay.map { replay in
            let state: String =
                switch replay.state {
                case .waiting: "waiting"
                case .playing: "playing"
                case .finished: "finished"
                }
            return ReplayStatus(path: replay.path, state: state)
        }
        // Where the views are now and what is on: the engine runs the config with the
        // runtime changes applied.
        let effective = pipeline.engine.model
        status.views = effective.views.map { view in
            ViewStatus(
                name: view.name, parent: view.parent.map { model.views[$0].name },
                frame: [view.frame.x, view.frame.y, view.frame.width, view.frame.height], enabled: view.enabled)
        }
        status.gestures = model.gestures.indices.map { i in
            let spec = model.gestures[i]
            let state = snapshot.gestures.indices.contains(i) ? snapshot.gestures[i] : nil
            var gesture = GestureStatus(
                name: spec.name, type: spec.type.rawValue, view: model.views[spec.view].name, state: state?.state.description ?? "?",
                continuous: spec.type.isContinuous)
            gesture.values[GestureMetrics.count] = Double(state?.recognitions ?? 0)
            gesture.enabled = effective.gestures.indices.contains(i) ? effective.gestures[i].enabled : spec.enabled
            for metric in gesture.events.metrics {
                if let state = GestureState.allCases.first(where: { $0.description == metric.key }) {
                    gesture.events[metric] = Double(eventCounts[i, state])
                }
            }
            return gesture
        }
        status.pending = snapshot.gestures.indices.compactMap { i in
            guard let since = snapshot.gestures[i].pendingSince, i < model.gestures.count else { return nil }
            return PendingStatus(
                gesture: model.gestures[i].name, waitingFor: model.failureRequirements(of: i).map { model.gestures[$0].name },
                milliseconds: Double(max(0, now - since) / 1000))
        }
        status.dispatcher = dispatcher.status
        status.control = server.status
        status.refused = refusals
        status.runtime = runtimeStatus
        return status
    }

    /// What was refused at an input's bound since start (docs/LIMITS.md), so an operator
    /// sees it without reading the journal.
    private var refusals: MetricValues {
        var refused = MetricValues(RefusalMetrics.all)
        refused[RefusalMetrics.connections] = Double(server.refusedConnections)
        refused[RefusalMetrics.requestsTooLarge] = Double(server.oversizedRequests)
        refused[RefusalMetrics.unadvertisedEvents] = Double(pipeline.unadvertisedEvents)
        refused[RefusalMetrics.commands] = Double(dispatcher.counters.commandsRefused)
        refused[RefusalMetrics.slotsClamped] = Double(pipeline.devices.count { $0.info.slotsClamped })
        return refused
    }

    /// The handler column of the routing table (`ControlCommand`): each request the server
    /// hands on, answered from the daemon's live state.
    public func handle(_ request: DaemonRequest, from peer: ControlPeer) -> ControlReply {
        switch request {
        case .status: .success(statusValue().json)
        case .reload: reloadConfiguration()
        case .devices: .success(.array(deviceList(detailed: true, at: loop.now()).map(\.json)))
        case .trigger(let trigger): self.trigger(trigger)
        case .metrics: .success(.string(MetricsText.render(statusValue())))
        case .replayStart:
            replay?.start()
                ?? .failure(
                    ControlError(
                        code: "no-replay", message: "this gestured reads live touchscreens (start it with --replay FILE to replay)"))
        case .runtime(let command): perform(command, from: peer)
        }
    }

    /// The attached devices: name, path, live contacts and the calibration in force (and
    /// where it came from); `detailed` adds ids, the `[[device]]` rule that maps it and the
    /// matrix. `now`: the time the frame rate is measured at.
    private func deviceList(detailed: Bool, at now: Microseconds) -> [DeviceStatus] {
        pipeline.devices.map { device in
            let info = device.info
            var status = DeviceStatus(
                name: info.name, path: input.path(of: device.id) ?? info.devnode ?? "?", idPath: device.properties["ID_PATH"],
                calibration: device.resolved.calibrationSource.description)
            status.values[DeviceMetrics.contacts] = Double(device.normalizer.frame.contacts.count { !$0.phase.isTerminal })
            let counters = device.normalizer.counters
            status.input[DeviceMetrics.frames] = Double(counters.frames)
            status.input[DeviceMetrics.synDropped] = Double(counters.synDropped)
            if counters.frames > 0 { status.lastFrame = uptimeSeconds(device.normalizer.frame.time, origin: origin) }
            if let health = pipeline.health(of: device.id) {
                status.health = health.state.description
                for rule in HealthRule.allCases {
                    status.filtered[DeviceMetrics.filteredRules[rule.rawValue]] = Double(health.counts[rule])
                }
                status.lastTouch = health.lastTouch.map { uptimeSeconds($0, origin: origin) }
                status.activity[DeviceMetrics.framesPerSecond] = health.framesPerSecond(at: now)
                status.maskedSpots = health.maskedSpotList.map {
                    MaskedSpotStatus(
                        x: $0.x, y: $0.y, since: uptimeSeconds($0.since, origin: origin), until: uptimeSeconds($0.until, origin: origin))
                }
            }
            if let encoder = pipeline.encoder(of: device.id), let forwarder = input.forwarder(of: device.id) {
                status.delivery = delivery(encoder, forwarder)
            } else if let reason = input.grabImpossible,
                let rule = device.resolved.rule, pipeline.configuration.devices[rule].passthrough
            {
                status.grabImpossible = reason
            }
            if detailed {
                status.detail = DeviceDetail(
                    vendor: Int(info.vendor), product: Int(info.product),
                    mapping: device.resolved.rule.map { "device[\($0)]" } ?? "identity", calibrationMatrix: device.mapping.calibration)
            }
            return status
        }
    }

    /// Touch delivery: the clone applications read, and what went to it.
    private func delivery(_ encoder: TouchEncoder, _ forwarder: TouchForwarder) -> DeliveryStatus {
        var delivery = DeliveryStatus(
            grabbed: encoder.grab == .taken, grab: encoder.grab.description, virtual: forwarder.virtual.devnode,
            cancel: encoder.cancel.rawValue)
        delivery.counts[DeviceMetrics.passed] = Double(encoder.passed)
        delivery.counts[DeviceMetrics.delayed] = Double(encoder.delayed)
        delivery.counts[DeviceMetrics.cancelled] = Double(encoder.cancelled)
        delivery.counts[DeviceMetrics.writeFailures] = Double(forwarder.failures)
        if let percentiles = forwarder.delayPercentiles {
            var delay = MetricValues(DeviceMetrics.delay)
            delay[DeviceMetrics.delayP50] = Double(percentiles.p50)
            delay[DeviceMetrics.delayP99] = Double(percentiles.p99)
            delay[DeviceMetrics.delayFrames] = Double(forwarder.delayCount)
            delivery.delay = delay
            delivery.delayHistogram = forwarder.delayHistogram
        }
        delivery.lastWriteError = forwarder.lastFailure.map { "\($0)" }
        return delivery
    }
}
