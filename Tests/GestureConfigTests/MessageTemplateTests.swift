import GestureConfig
import Testing

@Suite struct MessageTemplateTests {
    @Test func fieldsAndText() throws {
        let template = try MessageTemplate(parsing: "{gesture} at {x},{y} {{literal}}")
        #expect(
            template.segments == [
                .field("gesture"), .text(" at "), .field("x"), .text(","), .field("y"),
                .text(" {literal}"),
            ])
    }

    @Test func errors() {
        #expect(throws: MessageTemplate.ParseError.unknownField("sacle", didYouMean: "scale")) {
            try MessageTemplate(parsing: "zoom {sacle}")
        }
        #expect(throws: MessageTemplate.ParseError.unclosedBrace) { try MessageTemplate(parsing: "zoom {scale") }
        #expect(throws: MessageTemplate.ParseError.emptyField) { try MessageTemplate(parsing: "zoom {}") }
    }

    @Test func everyFieldHasAnEnvironmentName() {
        #expect(MessageTemplate.environmentName(for: "translation_x") == "GESTURE_TRANSLATION_X")
        #expect(MessageTemplate.environmentName(for: "gesture") == "GESTURE_NAME")
        #expect(MessageTemplate.environmentName(for: "t") == "GESTURE_TIME")
        for field in MessageTemplate.fieldNames {
            #expect((try? MessageTemplate(parsing: "{\(field)}"))?.segments == [.field(field)])
        }
    }
}
