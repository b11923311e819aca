import GestureCore
import Testing
import TouchInput

@testable import TouchPipeline

/// The encoder with an in-memory sink: the evdev frames a clone gets, without I/O.
@Suite struct TouchEncoderTests {
    final class Sink: TouchSink {
        let slotCount = 2
        let hasPressure = false
        let hasTouchMajor = false
        var frames: [[String]] = []
        var answered: [Microseconds?] = []

        func write(_ frame: [RawInputEvent], answering panelTime: Microseconds?) {
            frames.append(frame.map { "\(InputCodes.codeName(type: $0.type, code: $0.code)) \($0.value)" })
            answered.append(panelTime)
        }
    }

    static func contact(_ id: Int32, _ phase: TouchPhase, x: Int32, tool: ToolType = .finger) -> Contact {
        Contact(id: id, slot: 0, phase: phase, x: x, y: 50, normalizedX: 0, normalizedY: 0, toolType: tool)
    }

    @Test func aTouchIsOneFrameDownAndOneUpAnsweringThePanelFrames() {
        let sink = Sink()
        let encoder = TouchEncoder(device: DeviceID(1), sink: sink, cancel: .palm)
        encoder.mirror(TouchFrame(device: DeviceID(1), time: 1000, contacts: [Self.contact(1, .began, x: 7)]))
        encoder.apply(TouchChange(time: 1000, device: DeviceID(1), id: 1, kind: .began))
        encoder.flush()
        encoder.mirror(TouchFrame(device: DeviceID(1), time: 2000, contacts: [Self.contact(1, .ended, x: 7)]))
        encoder.apply(TouchChange(time: 2000, device: DeviceID(1), id: 1, kind: .ended))
        encoder.flush()
        #expect(
            sink.frames == [
                [
                    "ABS_MT_SLOT 0", "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 7", "ABS_MT_POSITION_Y 50",
                    "BTN_TOUCH 1", "ABS_X 7", "ABS_Y 50", "SYN_REPORT 0",
                ],
                ["ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "SYN_REPORT 0"],
            ])
        #expect(sink.answered == [1000, 2000])
        #expect(encoder.passed == 1)
    }

    @Test func aCancelAsAPalmIsAPalmFrameThenAReleaseThatAnswersNothing() {
        let sink = Sink()
        let encoder = TouchEncoder(device: DeviceID(1), sink: sink, cancel: .palm)
        encoder.mirror(TouchFrame(device: DeviceID(1), time: 1000, contacts: [Self.contact(1, .began, x: 7)]))
        encoder.apply(TouchChange(time: 1000, device: DeviceID(1), id: 1, kind: .began))
        encoder.flush()
        encoder.mirror(TouchFrame(device: DeviceID(1), time: 2000, contacts: [Self.contact(1, .moved, x: 8)]))
        encoder.apply(TouchChange(time: 2000, device: DeviceID(1), id: 1, kind: .cancelled))
        encoder.flush()
        #expect(sink.frames.count == 3)
        #expect(sink.frames[1].contains("ABS_MT_TOOL_TYPE 2") && !sink.frames[1].contains("ABS_MT_TRACKING_ID -1"))
        #expect(sink.frames[2].contains("ABS_MT_TRACKING_ID -1"))
        #expect(sink.answered == [1000, 2000, nil])
        #expect(encoder.cancelled == 1)
    }
}
