import ActionDispatch
import GestureConfig
import GestureControl
import GestureCore

extension Daemon {
    /// `{"cmd": "trigger", "gesture": NAME, "state": STATE}`: runs the gesture's actions for
    /// `state` as a recognition would (published to subscribers too), with a synthetic
    /// event at the centre of the gesture's view, so that an integrator can try a command
    /// under the service's real user and sandbox without touching the screen. `state`
    /// defaults to the first of the type's states that has actions (`recognized` for discrete
    /// types; began, changed, ended, cancelled for continuous ones), else the type's last
    /// (`recognized`, `ended`), and the reply's `note` says which states have actions.
    func trigger(_ request: TriggerRequest) -> ControlReply {
        let model = pipeline.configuration.model
        let name = request.gesture
        guard let index = model.gestures.firstIndex(where: { $0.name == name }) else {
            let known = model.gestures.map(\.name).joined(separator: ", ")
            return .failure(
                ControlError(code: "unknown-gesture", message: "no gesture '\(name)' in \(options.configPath); its gestures: \(known)"))
        }
        let spec = model.gestures[index]
        let states: [GestureState] = spec.type.isContinuous ? [.began, .changed, .ended, .cancelled] : [.recognized]
        let byState = pipeline.configuration.actions[index].byState
        let withActions = states.filter { !(byState[$0] ?? []).isEmpty }
        var state = withActions.first ?? (spec.type.isContinuous ? GestureState.ended : .recognized)
        if let text = request.state {
            guard let named = states.first(where: { $0.description == text }) else {
                let list = states.map(\.description).joined(separator: ", ")
                return .failure(ControlError(code: "unknown-state", message: "a \(spec.type) gesture has no state '\(text)': use \(list)"))
            }
            state = named
        }
        let frame = model.views[spec.view].frame
        var event = GestureEvent(
            time: loop.now(), gesture: index, view: spec.view, state: state, device: DeviceID(0),
            x: frame.x + frame.width / 2, y: frame.y + frame.height / 2, touches: 2)
        // The finger count and the first direction or edge the gesture accepts.
        switch spec.parameters {
        case .tap(let tap): event.touches = tap.touches
        case .longPress(let press): event.touches = press.touches
        case .pan(let pan): event.touches = pan.minimumTouches
        case .edgePan(let edgePan):
            event.touches = edgePan.pan.minimumTouches
            event.edge = Edges(rawValue: lowestBit(edgePan.edges.rawValue))
        case .swipe(let swipe):
            event.touches = swipe.touches
            event.direction = Directions(rawValue: lowestBit(swipe.directions.rawValue))
        case .pinch, .rotation: break
        }
        let actions = pipeline.configuration.actions[index].byState[state]?.count ?? 0
        // As after a recognition: the event's line and commands, then its mode switch (the
        // pipeline's, in the stream this wake's flush hands on).
        server.publish(event, names: names, origin: origin)
        dispatcher.dispatch(triggered: event)
        let mode = pipeline.performModeAction(of: event)
        logger.notice("trigger: \(name) \(state) (\(actions) action(s)), asked on the control socket")
        var reply: [(String, JSONValue)] = [
            ("gesture", .string(name)), ("state", .string(state.description)), ("actions", .number(Double(actions))),
        ]
        if let mode { reply.append(("mode", mode.mode.map(JSONValue.string) ?? .null)) }
        // Where the actions are, when not on the state that ran.
        if actions == 0 {
            let note =
                withActions.isEmpty
                ? "'\(name)' has no actions on any state (\(states.map { "on.\($0)" }.joined(separator: ", ")))"
                : "'\(name)' has actions on \(withActions.map { "on.\($0)" }.joined(separator: ", "))"
            reply.append(("note", .string(note)))
        }
        return .success(.object(reply))
    }
}

/// The first of the directions or edges a gesture accepts, for its synthetic event.
private func lowestBit(_ bits: UInt8) -> UInt8 { bits & (0 &- bits) }
