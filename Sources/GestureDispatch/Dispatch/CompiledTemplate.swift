import GestureConfig
import GestureCore
import JSONOutput
import TouchInput

/// A `MessageTemplate` with its placeholders resolved to event fields, ready to render
/// without looking names up. Every message is one line: it ends with exactly one newline,
/// whatever the template's text ends with (placeholders expand to names of the config's
/// character set, numbers and fixed words, never a newline; docs/CONFIG.md).
public struct CompiledTemplate: Sendable {
    enum Piece: Sendable {
        case text([UInt8])
        case field(EventField)
    }

    let pieces: [Piece]

    /// Fails on a placeholder that names no event field (the config validates this too).
    public init(_ template: MessageTemplate) throws(TemplateError) {
        var pieces: [Piece] = []
        for segment in template.segments {
            switch segment {
            case .text(let text): pieces.append(.text(Array(text.utf8)))
            case .field(let name):
                guard let field = EventField(rawValue: name) else { throw TemplateError(field: name) }
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

    /// Replaces `writer`'s content with the message. Text values are written bare (no
    /// quotes), numbers as in the event JSON; `{delayed_from}` is empty when there is none.
    public func render(_ event: GestureEvent, names: GestureNames, origin: Microseconds, into writer: inout JSONWriter) {
        writer.reset()
        // An index loop: an unspecialized array iterator allocates in a debug build.
        for i in 0..<pieces.count {
            switch pieces[i] {
            case .text(let bytes):
                writer.raw(bytes)
                writer.clearSeparator()
            case .field(let field): EventText.write(field, event, names, origin, into: &writer)
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

/// A template placeholder that is not an event field.
public struct TemplateError: Error, CustomStringConvertible, Sendable {
    public var field: String
    public var description: String {
        "unknown placeholder {\(field)} in a socket message; known: "
            + MessageTemplate.fieldNames.map { "{\($0)}" }.joined(separator: " ")
    }
}
