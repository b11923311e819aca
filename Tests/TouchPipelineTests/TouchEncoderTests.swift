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

    /// A contact the health stage split off a jump (its own id, from the top of `Int32`)
    /// goes on from the same panel contact: the old one lifts on its slot, the new one goes
    /// down where the panel put the finger with a tracking id and slot of its own, moves,
    /// and lifts with the panel's lift.
    @Test func aSplitContactGoesDownWithItsOwnTrackingIDAndEnds() {
        let sink = Sink()
        let encoder = TouchEncoder(device: DeviceID(1), sink: sink, cancel: .release)
        let split = Int32.max
        func frame(_ t: Microseconds, _ raw: Contact, _ changes: [(Int32, TouchChange.Kind)]) {
            encoder.mirror(TouchFrame(device: DeviceID(1), time: t, contacts: [raw]))
            for (id, kind) in changes {
                encoder.apply(TouchChange(time: t, device: DeviceID(1), id: id, kind: kind), panel: id == split ? 1 : nil)
            }
            encoder.flush()
        }
        frame(1000, Self.contact(1, .began, x: 7), [(1, .began)])
        frame(2000, Self.contact(1, .moved, x: 900), [(1, .cancelled), (split, .began)])
        frame(3000, Self.contact(1, .moved, x: 910), [(split, .moved)])
        frame(4000, Self.contact(1, .ended, x: 910), [(split, .ended)])
        #expect(
            sink.frames[1] == [
                "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 1",
                "ABS_MT_POSITION_X 900", "ABS_MT_POSITION_Y 50", "BTN_TOUCH 1", "ABS_X 900", "ABS_Y 50", "SYN_REPORT 0",
            ])
        #expect(sink.frames[2].contains("ABS_MT_POSITION_X 910"))
        #expect(sink.frames[3] == ["ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "SYN_REPORT 0"])
        #expect(encoder.passed == 2 && encoder.cancelled == 1)
    }

    /// A slot released in a frame takes no new contact before that frame's `SYN_REPORT`:
    /// libinput would take the new tracking id as a second touch-down on a slot still down.
    @Test func aSlotReleasedInAFrameIsReusedOnlyInTheNext() {
        let sink = Sink()  // two slots
        let encoder = TouchEncoder(device: DeviceID(1), sink: sink, cancel: .release)
        encoder.mirror(
            TouchFrame(device: DeviceID(1), time: 1000, contacts: [Self.contact(1, .began, x: 7), Self.contact(2, .began, x: 8)]))
        encoder.apply(TouchChange(time: 1000, device: DeviceID(1), id: 1, kind: .began))
        encoder.apply(TouchChange(time: 1000, device: DeviceID(1), id: 2, kind: .began))
        encoder.flush()
        encoder.mirror(
            TouchFrame(device: DeviceID(1), time: 2000, contacts: [Self.contact(1, .ended, x: 7), Self.contact(3, .began, x: 9)]))
        encoder.apply(TouchChange(time: 2000, device: DeviceID(1), id: 1, kind: .ended))
        encoder.apply(TouchChange(time: 2000, device: DeviceID(1), id: 3, kind: .began))
        encoder.flush()
        #expect(sink.frames.count == 3)
        #expect(sink.frames[1].starts(with: ["ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1"]) && sink.frames[1].last == "SYN_REPORT 0")
        #expect(!sink.frames[1].contains("ABS_MT_TRACKING_ID 2"))
        #expect(sink.frames[2].starts(with: ["ABS_MT_SLOT 0", "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 2", "ABS_MT_POSITION_X 9"]))
        // The first part answers nothing; the frame that completes the panel's answers it.
        #expect(sink.answered == [1000, nil, 2000])
    }

    /// Before the grab is taken, nothing goes to the clone, a contact split off a panel
    /// contact of that time included (its id is above any the grab will start from).
    @Test func aSplitOfAContactFromBeforeTheGrabIsNotForwarded() {
        let sink = Sink()
        let encoder = TouchEncoder(device: DeviceID(1), sink: sink, cancel: .release, grab: .waiting(contacts: 1))
        encoder.mirror(TouchFrame(device: DeviceID(1), time: 1000, contacts: [Self.contact(1, .moved, x: 900)]))
        encoder.apply(TouchChange(time: 1000, device: DeviceID(1), id: .max, kind: .began), panel: 1)
        encoder.flush()
        #expect(sink.frames.isEmpty)
    }
}
