import GestureConfig
import GestureCore

#if canImport(Glibc)
import Glibc
#endif

/// The control socket's commands, answered from the daemon's live state (schema in
/// docs/PROTOCOL.md).
extension Daemon: ControlHandler {
    public func status() -> JSONValue {
        let now = MonotonicClock.now()
        let configuration = pipeline.configuration
        let model = configuration.model
        let snapshot = pipeline.engine.snapshot()
        var members: [(String, JSONValue)] = [
            ("version", .string(GesturedVersion.current)),
            ("pid", .number(Double(getpid()))),
            ("uptime_s", seconds(now - origin)),
            (
                "config",
                .object([
                    ("path", .string(options.configPath)), ("files", .array(configuration.files.map(JSONValue.string))),
                    ("last_reload", lastReload?.json(origin: origin) ?? .null),
                ])
            ),
            ("devices", deviceList(detailed: false)),
            ("unusable_devices", .array(input.unusable)),
            ("dropped_contacts", .number(Double(snapshot.droppedContacts))),
            ("engine_bugs", .number(Double(snapshot.engineBugs))),
        ]
        if let replay {
            let state: String =
                switch replay.state {
                case .waiting: "waiting"
                case .playing: "playing"
                case .finished: "finished"
                }
            members.append(("replay", .object([("path", .string(replay.path)), ("state", .string(state))])))
        }
        members += [
            (
                "views",
                .array(
                    model.views.map { view in
                        .object([
                            ("name", .string(view.name)), ("parent", view.parent.map { .string(model.views[$0].name) } ?? .null),
                            ("frame", .array([view.frame.x, view.frame.y, view.frame.width, view.frame.height].map { .number($0) })),
                        ])
                    })
            ),
            (
                "gestures",
                .array(
                    model.gestures.indices.map { i in
                        let spec = model.gestures[i]
                        let state = snapshot.gestures.indices.contains(i) ? snapshot.gestures[i] : nil
                        return .object([
                            ("name", .string(spec.name)), ("type", .string(spec.type.rawValue)),
                            ("view", .string(model.views[spec.view].name)),
                            ("state", .string(state?.state.description ?? "?")),
                            ("count", .number(Double(state?.recognitions ?? 0))),
                        ])
                    })
            ),
            (
                "pending",
                .array(
                    snapshot.gestures.indices.compactMap { i in
                        guard let since = snapshot.gestures[i].pendingSince, i < model.gestures.count else { return nil }
                        return .object([
                            ("gesture", .string(model.gestures[i].name)),
                            ("waiting_for", .array(model.failureRequirements(of: i).map { .string(model.gestures[$0].name) })),
                            ("ms", .number(Double(max(0, now - since) / 1000))),
                        ])
                    })
            ),
            ("dispatcher", dispatcher.statusJSON),
            ("control", server.statusJSON),
            ("refused", refusals),
        ]
        return .object(members)
    }

    /// What was refused at an input's bound since start (docs/LIMITS.md), so an operator
    /// sees it without reading the journal.
    private var refusals: JSONValue {
        .object([
            ("connections", .number(Double(server.refusedConnections))),
            ("requests_too_large", .number(Double(server.oversizedRequests))),
            ("unadvertised_events", .number(Double(pipeline.unadvertisedEvents))),
            ("commands", .number(Double(dispatcher.counters.commandsRefused))),
            ("slots_clamped", .number(Double(pipeline.devices.count { $0.info.slotsClamped }))),
        ])
    }

    public func reload() -> ControlReply { reloadConfiguration() }

    public func devices() -> JSONValue { deviceList(detailed: true) }

    public func handle(command: String, request: JSONValue) -> ControlReply? {
        if command == "trigger" { return trigger(request) }
        guard command == "replay-start" else { return nil }
        guard let replay else {
            return .failure(
                ControlError(code: "no-replay", message: "this gestured reads live touchscreens (start it with --replay FILE to replay)"))
        }
        return replay.start()
    }

    /// The attached devices: name, path, live contacts and the calibration in force (and
    /// where it came from); `detailed` adds ids, the `[[device]]` rule that maps it and the
    /// matrix.
    private func deviceList(detailed: Bool) -> JSONValue {
        .array(
            pipeline.devices.map { device in
                let info = device.info
                let contacts = device.normalizer.frame.contacts.count { !$0.phase.isTerminal }
                var members: [(String, JSONValue)] = [
                    ("name", .string(info.name)), ("path", .string(input.path(of: device.id) ?? info.devnode ?? "?")),
                    ("contacts", .number(Double(contacts))),
                    ("calibration", .string(device.resolved.calibrationSource.description)),
                ]
                if let forwarder = pipeline.forwarder(of: device.id) {
                    // Touch delivery: the clone applications read, and what went to it.
                    members += [
                        ("grabbed", .bool(forwarder.grab == .taken)), ("grab", .string(forwarder.grab.description)),
                        ("virtual", .string(forwarder.virtual.devnode)),
                        ("cancel", .string(forwarder.cancel.rawValue)), ("passed", .number(Double(forwarder.passed))),
                        ("delayed", .number(Double(forwarder.delayed))),
                        ("cancelled", .number(Double(forwarder.cancelled))),
                        ("write_failures", .number(Double(forwarder.failures))),
                    ]
                    if let delay = forwarder.delayPercentiles {
                        members += [
                            ("delay_us_p50", .number(Double(delay.p50))), ("delay_us_p99", .number(Double(delay.p99))),
                            ("delay_frames", .number(Double(forwarder.delayCount))),
                        ]
                    }
                    if let failure = forwarder.lastFailure { members.append(("last_write_error", .string("\(failure)"))) }
                } else {
                    members.append(("grabbed", .bool(false)))
                }
                if detailed {
                    members += [
                        ("vendor", .number(Double(info.vendor))), ("product", .number(Double(info.product))),
                        ("mapping", .string(device.resolved.rule.map { "device[\($0)]" } ?? "identity")),
                        ("calibration_matrix", .array(device.mapping.calibration.map { .number($0) })),
                    ]
                }
                return .object(members)
            })
    }

    private func seconds(_ us: Microseconds) -> JSONValue { .number(Double(us / 1000) / 1000) }
}
