import GestureControl
import GestureCore
import JSONOutput

/// The one event formatter of replay and the live stream: one JSON object per line.
///
/// Times are seconds since `origin` (the first recorded event in replay, the daemon's start
/// live) with 3 decimals; positions and translations px with 1 decimal, velocities px/s
/// with 1 decimal; scale, rotation (radians) and their velocities with 3 decimals.
public enum EventJSON {
    /// Replaces the writer's content with the event's line, newline included.
    /// `coalesced`: a `changed` at the display's pace, standing for that many `changed`
    /// events (the pipeline's `.paced`), for coalescing subscribers and `replay --coalesce`.
    public static func line(
        _ event: GestureEvent, names: GestureNames, origin: Microseconds, coalesced: Int? = nil, into writer: inout JSONWriter
    ) {
        writer.reset()
        writer.beginObject()
        // Index loops: an unspecialized array iterator allocates in a debug build.
        let common = EventField.common
        for i in 0..<common.count { member(common[i], event, names, origin, &writer) }
        let perType = EventField.perType(names.type(event.gesture))
        for i in 0..<perType.count { member(perType[i], event, names, origin, &writer) }
        if event.delayedFrom != nil { member(.delayedFrom, event, names, origin, &writer) }
        if let coalesced {
            writer.key("coalesced")
            writer.int(Int64(coalesced))
        }
        writer.endObject()
        writer.newline()
    }

    /// A trace record of the event stream (subscribers that asked for the trace).
    public static func traceLine(
        time: Microseconds, origin: Microseconds, view: String, gesture: String,
        from: String, to: String, reason: String, into writer: inout JSONWriter
    ) {
        writer.reset()
        writer.beginObject()
        writer.key("t")
        seconds(time - origin, &writer)
        writer.key("view")
        writer.string(view)
        writer.key("gesture")
        writer.string(gesture)
        writer.key("from")
        writer.string(from)
        writer.key("to")
        writer.string(to)
        writer.key("reason")
        writer.string(reason)
        writer.endObject()
        writer.newline()
    }

    /// The stream's last line: the daemon is stopping (`reason`: SIGTERM, SIGINT).
    public static func stoppingLine(reason: String, time: Microseconds, origin: Microseconds, into writer: inout JSONWriter) {
        writer.reset()
        writer.beginObject()
        writer.key("t")
        seconds(time - origin, &writer)
        writer.key("stopping")
        writer.bool(true)
        writer.key("reason")
        writer.string(reason)
        writer.endObject()
        writer.newline()
    }

    /// `{"t": ..., members...}`: a line the stream carries beside events (a runtime change),
    /// its `t` first as on every line.
    public static func objectLine(_ object: JSONValue, time: Microseconds, origin: Microseconds, into writer: inout JSONWriter) {
        writer.reset()
        writer.beginObject()
        writer.key("t")
        seconds(time - origin, &writer)
        if case .object(let members) = object {
            for (key, value) in members {
                writer.key(key)
                writer.value(value)
            }
        }
        writer.endObject()
        writer.newline()
    }

    /// Writes one field's JSON value.
    static func value(
        _ field: EventField, _ event: GestureEvent, _ names: GestureNames, _ origin: Microseconds,
        _ writer: inout JSONWriter
    ) {
        switch field {
        case .t: seconds(event.time - origin, &writer)
        case .gesture: writer.string(names.gesture(event.gesture))
        case .type: writer.string(names.type(event.gesture)?.rawValue ?? "?")
        case .state: writer.string(event.state.description)
        case .view: writer.string(names.view(event.view))
        case .x: writer.fixed(event.x, decimals: 1)
        case .y: writer.fixed(event.y, decimals: 1)
        case .touches: writer.int(Int64(event.touches))
        case .translationX: writer.fixed(event.translationX, decimals: 1)
        case .translationY: writer.fixed(event.translationY, decimals: 1)
        case .velocityX: writer.fixed(event.velocityX, decimals: 1)
        case .velocityY: writer.fixed(event.velocityY, decimals: 1)
        case .scale: writer.fixed(event.scale, decimals: 3)
        case .velocity: writer.fixed(event.velocity, decimals: 3)
        case .rotation: writer.fixed(event.rotation, decimals: 3)
        case .direction: writer.string(DirectionText.words(event.direction))
        case .edge: writer.string(DirectionText.words(event.edge))
        case .delayedFrom:
            if let from = event.delayedFrom { seconds(from - origin, &writer) } else { writer.null() }
        case .device: writer.int(Int64(event.device.rawValue))
        }
    }

    private static func member(
        _ field: EventField, _ event: GestureEvent, _ names: GestureNames,
        _ origin: Microseconds, _ writer: inout JSONWriter
    ) {
        writer.key(field.rawValue)
        value(field, event, names, origin, &writer)
    }

    private static func seconds(_ us: Microseconds, _ writer: inout JSONWriter) {
        writer.fixed(Double(us) / 1_000_000, decimals: 3)
    }
}
