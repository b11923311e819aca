import ConfigModel
import GestureCore

/// One field of the event JSON (and placeholder of a message template), resolved once
/// so that rendering compares no strings.
public enum EventField: String, CaseIterable, Sendable {
    case t, gesture, type, state, view, x, y, touches
    case translationX = "translation_x"
    case translationY = "translation_y"
    case velocityX = "velocity_x"
    case velocityY = "velocity_y"
    case scale, velocity, rotation, direction, edge
    case delayedFrom = "delayed_from"
    case device

    /// The fields every JSON line carries, in order.
    static let common = fields(MessageTemplate.commonFieldNames)

    // The config's table of which type fills which field, resolved once.
    private static let panFields = fields(MessageTemplate.typeFieldNames(for: .pan))
    private static let edgePanFields = fields(MessageTemplate.typeFieldNames(for: .edgePan))
    private static let pinchFields = fields(MessageTemplate.typeFieldNames(for: .pinch))
    private static let rotationFields = fields(MessageTemplate.typeFieldNames(for: .rotation))
    private static let swipeFields = fields(MessageTemplate.typeFieldNames(for: .swipe))
    private static let noFields: [EventField] = []

    private static func fields(_ names: [String]) -> [EventField] { names.compactMap(EventField.init(rawValue:)) }

    /// The per-type fields the JSON line carries for a gesture type (static tables, so the
    /// formatter allocates nothing).
    static func perType(_ type: GestureType?) -> [EventField] {
        switch type {
        case .pan: panFields
        case .edgePan: edgePanFields
        case .pinch: pinchFields
        case .rotation: rotationFields
        case .swipe: swipeFields
        case .tap, .longPress, nil: noFields
        }
    }
}

/// Directions and edges as words ("left", "up,right"). A single one, the usual case, is a
/// literal (no allocation).
enum DirectionText {
    static func words(_ directions: Directions) -> String {
        if directions.isEmpty { return "" }
        if let name = directions.name { return name }
        return Directions.all.filter { directions.contains($0.direction) }.map(\.name).joined(separator: ",")
    }

    static func words(_ edges: Edges) -> String {
        switch edges {
        case []: return ""
        case .top: return "top"
        case .left: return "left"
        case .bottom: return "bottom"
        case .right: return "right"
        default: break
        }
        var parts: [String] = []
        if edges.contains(.top) { parts.append("top") }
        if edges.contains(.left) { parts.append("left") }
        if edges.contains(.bottom) { parts.append("bottom") }
        if edges.contains(.right) { parts.append("right") }
        return parts.joined(separator: ",")
    }
}
