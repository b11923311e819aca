import GestureCore
import Testing
import TouchPipeline

/// The palm stage on its own: what it lets through of each frame, in screen px and mm.
@Suite struct PalmRejectionTests {
    var stage = PalmRejection()

    /// `(id, phase, tool)` per contact of one frame of `device`, through the stage.
    mutating func pass(_ contacts: [(Int32, TouchPhase, ToolType)], device: DeviceID = DeviceID(1)) -> [String] {
        var frame = ScreenFrame(
            device: device, time: 0,
            contacts: contacts.map { ScreenContact(id: $0.0, phase: $0.1, toolType: $0.2, x: 10, y: 20, mmX: 2.5, mmY: 5) })
        stage.process(&frame)
        return frame.contacts.map { "\($0.id) \($0.phase) \($0.toolType)" }
    }

    @Test mutating func aContactThatBeginsAsAPalmIsDroppedWhole() {
        #expect(pass([(1, .began, .palm), (2, .began, .finger)]) == ["2 began finger"])
        #expect(pass([(1, .moved, .finger), (2, .moved, .finger)]) == ["2 moved finger"], "a palm that turns finger stays a palm")
        #expect(stage.count == 1)
        #expect(pass([(1, .ended, .finger), (2, .ended, .finger)]) == ["2 ended finger"])
        #expect(stage.count == 0, "forgotten once it lifts")
        #expect(pass([(1, .began, .finger)]) == ["1 began finger"], "the next contact is a contact again")
    }

    @Test mutating func aContactThatBecomesAPalmIsCancelledOnceThenDropped() {
        #expect(pass([(1, .began, .finger)]) == ["1 began finger"])
        #expect(pass([(1, .moved, .palm)]) == ["1 cancelled palm"])
        #expect(pass([(1, .stationary, .palm)]).isEmpty)
        #expect(pass([(1, .ended, .palm)]).isEmpty)
        #expect(stage.count == 0)
        // A lift that is a palm's first palm frame is still a cancel.
        #expect(pass([(2, .began, .finger)]) == ["2 began finger"])
        #expect(pass([(2, .ended, .palm)]) == ["2 cancelled palm"])
        #expect(stage.count == 0)
    }

    @Test mutating func palmsAreKeptPerDeviceAndForgottenWithIt() {
        #expect(pass([(1, .began, .palm)], device: DeviceID(1)).isEmpty)
        #expect(pass([(1, .began, .finger)], device: DeviceID(2)) == ["1 began finger"], "the same id on another device")
        stage.detach(device: DeviceID(1))
        #expect(stage.count == 0)
        #expect(stage.nextDeadline == nil)
    }
}
