import ConfigModel
import GestureCore
import JSONOutput

/// A `MessageTemplate` with its placeholders resolved to event fields, ready to render
/// without looking names up (`TemplateLine` over `EventField`).
public struct CompiledTemplate: Sendable {
    let line: TemplateLine<EventField>

    /// Fails on a placeholder that names no event field (the config validates this too).
    public init(_ template: MessageTemplate) throws(TemplateError) {
        line = try TemplateLine(template, names: MessageTemplate.fieldNames)
    }

    /// Replaces `writer`'s content with the message. Text values are written bare (no
    /// quotes), numbers as in the event JSON; `{delayed_from}` is empty when there is none.
    public func render(_ event: GestureEvent, names: GestureNames, origin: Microseconds, into writer: inout JSONWriter) {
        line.render(into: &writer) { field, writer in EventText.write(field, event, names, origin, into: &writer) }
    }
}

/// A health action's message (`[device.on.STATE]`): the same rules, over a health change's
/// fields.
struct HealthTemplate: Sendable {
    let line: TemplateLine<HealthField>

    init(_ template: MessageTemplate) throws(TemplateError) {
        line = try TemplateLine(template, names: MessageTemplate.healthFieldNames)
    }

    func render(_ change: HealthChange, origin: Microseconds, into writer: inout JSONWriter) {
        line.render(into: &writer) { field, writer in field.write(change, origin: origin, into: &writer) }
    }
}

/// A template compiled over one set of placeholders (`Field`: an event's, a health
/// change's): its text, and its placeholders resolved to fields. Every message is one line:
/// it ends with exactly one newline, whatever the template's text ends with (placeholders
/// expand to names of the config's character set, numbers and fixed words, never a
/// newline; docs/CONFIG.md).
struct TemplateLine<Field: RawRepresentable & Sendable>: Sendable where Field.RawValue == String {
    /// A template's text, or one of its placeholders resolved to a field.
    enum Piece: Sendable {
        case text([UInt8])
        case field(Field)
    }

    let pieces: [Piece]

    /// Fails on a placeholder that is not one of `names` (the field's raw values).
    init(_ template: MessageTemplate, names: [String]) throws(TemplateError) {
        var pieces: [Piece] = []
        for segment in template.segments {
            switch segment {
            case .text(let text): pieces.append(.text(Array(text.utf8)))
            case .field(let name):
                guard let field = Field(rawValue: name) else { throw TemplateError(field: name, known: names) }
                pieces.append(.field(field))
            }
        }
        // The newline is the renderer's: trailing line ends of the template's text go.
        if case .text(var last) = pieces.last {
            while last.last == UInt8(ascii: "\n") || last.last == UInt8(ascii: "\r") { last.removeLast() }
            pieces[pieces.count - 1] = .text(last)
        }
        self.pieces = pieces
    }

    /// Replaces `writer`'s content with the message, each placeholder written by `write`.
    @inline(__always)
    func render(into writer: inout JSONWriter, field write: (Field, inout JSONWriter) -> Void) {
        writer.reset()
        // An index loop: an unspecialized array iterator allocates in a debug build.
        for i in 0..<pieces.count {
            switch pieces[i] {
            case .text(let bytes):
                writer.raw(bytes)
                writer.clearSeparator()
            case .field(let field): write(field, &writer)
            }
        }
        writer.newline()
    }
}

/// One event field as plain text: names bare (no quotes), numbers as in the event JSON,
/// `delayed_from` empty when there is none. Used by templates and the environment.
enum EventText {
    static func write(
        _ field: EventField, _ event: GestureEvent, _ names: GestureNames, _ origin: Microseconds,
        into writer: inout JSONWriter
    ) {
        switch field {
        case .gesture: writer.raw(names.gesture(event.gesture).utf8)
        case .type: writer.raw((names.type(event.gesture)?.rawValue ?? "?").utf8)
        case .state: writer.raw(event.state.description.utf8)
        case .view: writer.raw(names.view(event.view).utf8)
        case .direction: writer.raw(DirectionText.words(event.direction).utf8)
        case .edge: writer.raw(DirectionText.words(event.edge).utf8)
        case .delayedFrom where event.delayedFrom == nil: break
        default: EventJSON.value(field, event, names, origin, &writer)
        }
        writer.clearSeparator()
    }
}

/// A template placeholder that is not a field of what the message is about.
public struct TemplateError: Error, CustomStringConvertible, Sendable {
    public var field: String
    public var known: [String] = MessageTemplate.fieldNames
    public var description: String {
        "unknown placeholder {\(field)} in a socket message; known: " + known.map { "{\($0)}" }.joined(separator: " ")
    }
}
