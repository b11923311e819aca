import GestureCore
import Testing

@testable import TouchInput

@Suite struct TouchNormalizerTests {
    @Test func beganMovedStationaryEnded() {
        let h = Harness(Fixture.protocolB())
        let frames = h.run(
            Stream()
                .slot(0).track(40).x(100).y(50).report()
                .x(110).report()
                .report()  // nothing changed, but a contact is live: a frame
                .slot(0).track(-1).report())
        #expect(frames.map(\.summary) == [["0:began@100,50#0"], ["0:moved@110,50#0"], ["0:stationary@110,50#0"], ["0:ended@110,50#0"]])
        #expect(frames.map(\.time) == [0, 10_000, 20_000, 30_000])
        // libinput's cells: x 0...1000 has 1001 values, y 0...500 has 501.
        #expect(frames[0].contacts[0].normalizedX == 100.0 / 1001)
        #expect(frames[0].contacts[0].normalizedY == 50.0 / 501)
        #expect(frames[0].device == DeviceID(7))
    }

    @Test func stationaryWhenAnotherContactMoves() {
        let h = Harness(Fixture.protocolB())
        let frames = h.run(
            Stream()
                .slot(0).track(1).x(10).y(10).slot(1).track(2).x(20).y(20).report()
                .slot(1).x(25).report())
        #expect(frames[1].summary == ["0:stationary@10,10#0", "1:moved@25,20#1"])
    }

    @Test func contactThatBeginsAndEndsInOneFrame() {
        let h = Harness(Fixture.protocolB())
        let frames = h.run(Stream().slot(0).track(5).x(300).y(200).track(-1).report())
        #expect(frames.map(\.summary) == [["0:began@300,200#0", "0:ended@300,200#0"]])
        #expect(h.ledger.violations.isEmpty)
        #expect(h.ledger.live.isEmpty)
    }

    @Test func newTrackingIDInAnOccupiedSlotEndsTheOldContact() {
        let h = Harness(Fixture.protocolB())
        let frames = h.run(
            Stream()
                .slot(1).track(10).x(100).y(100).report()
                .slot(1).track(11).x(400).report())
        #expect(frames[1].summary == ["0:ended@100,100#1", "1:began@400,100#1"])
        #expect(h.ledger.violations.isEmpty)
    }

    /// Opened after the device was used (a live panel): the values the kernel last
    /// reported per slot, and the slot selected last, come from libevdev's state, since
    /// the kernel will not repeat them.
    @Test func primedSlotsStartFromTheDevicesLastValues() {
        let h = Harness(Fixture.protocolB(toolType: true))
        h.normalizer.prime(slot: 2, x: 300, y: 200)
        h.normalizer.prime(slot: 3, x: 700, y: 400, toolType: 2)
        h.normalizer.prime(currentSlot: 3)
        let frames = h.run(
            Stream()
                .track(8).x(710).report()  // slot 3 still selected; Y unchanged
                .slot(2).track(9).report())  // neither X nor Y
        #expect(frames[0].summary == ["0:began@710,400#3"])
        #expect(frames[0].contacts[0].toolType == .palm)
        #expect(frames[1].summary == ["1:began@300,200#2", "0:stationary@710,400#3"])
    }

    @Test func newContactWithoutCoordinatesKeepsTheSlotsLastPosition() {
        let h = Harness(Fixture.protocolB())
        let frames = h.run(
            Stream()
                .slot(2).track(1).x(123).y(456).report()
                .slot(2).track(-1).report()
                .slot(2).track(2).report()  // neither X nor Y: unchanged values were dropped
                .slot(2).track(-1).report()
                .slot(2).track(3).y(99).report())  // only Y
        #expect(frames[2].summary == ["1:began@123,456#2"])
        #expect(frames[4].summary == ["2:began@123,99#2"])
    }

    @Test func withoutAnySlotEventSlotZeroIsImplicit() {
        let h = Harness(Fixture.protocolB())
        let frames = h.run(Stream().track(3).x(1).y(2).report().x(5).report().track(-1).report())
        #expect(frames.map(\.summary) == [["0:began@1,2#0"], ["0:moved@5,2#0"], ["0:ended@5,2#0"]])
    }

    @Test func contactStateComesFromTrackingIDsAloneNotBTNTouch() {
        let withoutKey = Harness(Fixture.protocolB(btnTouch: false))
        #expect(withoutKey.run(Stream().slot(0).track(1).x(1).y(1).report()).map(\.summary) == [["0:began@1,1#0"]])
        // A BTN_TOUCH 0 while a tracking id is still set does not end the contact.
        let withKey = Harness(Fixture.protocolB())
        let frames = withKey.run(Stream().slot(0).track(1).x(1).y(1).touch(true).report().touch(false).report())
        #expect(frames.map(\.summary) == [["0:began@1,1#0"], ["0:stationary@1,1#0"]])
    }

    @Test func slotOutOfRangeIsCountedAndIgnored() {
        let h = Harness(Fixture.protocolB(slots: 2))
        let frames = h.run(
            Stream()
                .slot(0).track(1).x(10).y(10)
                .slot(5).track(9).x(999).y(999)  // ignored: the device has slots 0 and 1
                .slot(-3).x(1)
                .slot(1).track(2).x(20).y(20).report())
        #expect(frames.map(\.summary) == [["0:began@10,10#0", "1:began@20,20#1"]])
        #expect(h.normalizer.counters.outOfRangeSlots == 2)
    }

    /// A live device that declares more slots than `maximumSlots` is clamped: the normalizer
    /// is small and quick to make, slots past the bound count as out of range.
    @Test func aHugeSlotCountIsClampedForALiveDevice() {
        let info = Fixture.protocolB(slots: .max)
        #expect(info.slotsClamped && info.declaredSlotCount == Int(Int32.max))
        #expect(info.slotCount == TouchDeviceInfo.maximumSlots)
        let h = Harness(info)
        let frames = h.run(Stream().slot(63).track(1).x(10).y(10).slot(64).track(2).x(20).y(20).report())
        #expect(frames.map(\.summary) == [["0:began@10,10#63"]])
        #expect(h.normalizer.counters.outOfRangeSlots == 1)
        #expect(!Fixture.protocolB(slots: 64).slotsClamped)
    }

    /// Events the device does not advertise are counted and dropped before anything looks at
    /// them: an unadvertised axis changes nothing, a key or type it lacks likewise.
    @Test func unadvertisedEventsAreDroppedAndCounted() {
        let h = Harness(Fixture.protocolB())
        let frames = h.run(
            Stream()
                .slot(0).track(1).x(10).y(10).pressure(99).report()
                .raw(InputCodes.evAbs, 0x3f, 5).raw(InputCodes.evKey, 0x110, 1).raw(4, 5, 1).raw(0x1f, 0, 0).raw(0x100, 0, 0)
                .raw(InputCodes.evSyn, 0x0f, 0).x(20).report())
        #expect(frames.map(\.summary) == [["0:began@10,10#0"], ["0:moved@20,10#0"]])
        #expect(frames[0].contacts[0].pressure == nil)
        #expect(h.normalizer.counters.unadvertised == 7)
    }

    /// libmtdev indexes a 64-entry table by the raw code: codes above ABS_MAX crashed it
    /// (0x60, 0x61, 0x100, 0xc3a0) or corrupted its stack (0x40, 0x48). They never reach it.
    @Test func protocolACodesAboveABSMaxNeverReachLibmtdev() {
        let h = Harness(Fixture.protocolA())
        var stream = Stream().x(100).y(50).mtReport()
        for code: UInt16 in [0x40, 0x48, 0x60, 0x61, 0x100, 0xc3a0, 0xffff] { stream = stream.raw(InputCodes.evAbs, code, 1) }
        let frames = h.run(stream.report())
        #expect(frames.map(\.summary) == [["0:began@100,50#0"]])
        #expect(h.normalizer.counters.unadvertised == 7)
    }

    @Test func synDroppedCancelsContactsThatVanished() {
        let h = Harness(Fixture.protocolB())
        h.run(Stream().slot(0).track(1).x(10).y(10).slot(1).track(2).x(20).y(20).report())
        // libevdev's sync mode: SYN_DROPPED, then the state after the gap, then SYN_REPORT.
        let frames = h.run(
            Stream(time: 50_000).dropped().slot(0).track(-1).slot(1).x(30).slot(2).track(7).x(5).y(5).report()
                .slot(1).track(-1).report())
        #expect(
            frames.map(\.summary) == [
                ["0:cancelled@10,10#0", "1:moved@30,20#1", "2:began@5,5#2"],
                ["1:ended@30,20#1", "2:stationary@5,5#2"],  // after recovery, lifts end normally again
            ])
        #expect(h.normalizer.counters.synDropped == 1)
        #expect(h.ledger.violations.isEmpty)
    }

    @Test func singleTouchDevice() {
        let h = Harness(Fixture.singleTouch())
        let frames = h.run(
            Stream()
                .absX(500).absY(250).touch(true).report()
                .absX(600).report()
                .touch(false).report()
                .touch(true).report())
        #expect(frames.map(\.summary) == [["0:began@500,250#0"], ["0:moved@600,250#0"], ["0:ended@600,250#0"], ["1:began@600,250#0"]])
        #expect(frames[0].contacts[0].normalizedX == 500.0 / 1001)
    }

    @Test func protocolAThroughLibmtdev() {
        let h = Harness(Fixture.protocolA())
        let frames = h.run(
            Stream()
                .x(100).y(100).mtReport().touch(true).report()
                .x(900).y(400).mtReport().x(102).y(100).mtReport().report()  // a second finger, reported first
                .x(900).y(400).mtReport().report()  // the first lifts
                .touch(false).report())  // no SYN_MT_REPORT: all lifted
        #expect(frames.count == 4)
        #expect(frames[0].contacts.map(\.phase) == [.began])
        #expect(frames[1].contacts.count { $0.phase == .began } == 1)
        #expect(frames[1].contacts.contains { $0.id == frames[0].contacts[0].id && $0.x == 102 })
        #expect(frames[2].contacts.contains { $0.id == frames[0].contacts[0].id && $0.phase == .ended })
        #expect(frames[3].contacts.map(\.phase) == [.ended])
        #expect(h.ledger.contacts == 2)
        #expect(h.ledger.violations.isEmpty)
        #expect(h.ledger.live.isEmpty)
    }

    @Test func pressureTouchMajorAndToolTypeWhenTheDeviceHasThem() {
        let rich = Harness(Fixture.protocolB(pressure: true, touchMajor: true, toolType: true))
        let frames = rich.run(Stream().slot(0).track(1).x(1).y(1).pressure(80).major(6).tool(1).slot(1).track(2).tool(2).report())
        #expect(frames[0].contacts[0].pressure == 80)
        #expect(frames[0].contacts[0].touchMajor == 6)
        #expect(frames[0].contacts.map(\.toolType) == [.pen, .palm])
        let plain = Harness(Fixture.protocolB())
        let plainFrame = plain.run(Stream().slot(0).track(1).x(1).y(1).report())[0]
        #expect(plainFrame.contacts[0].pressure == nil)
        #expect(plainFrame.contacts[0].touchMajor == nil)
        #expect(plainFrame.contacts[0].toolType == .finger)
    }

    @Test func theToolTypeIsTrackedPerSlotAndMayChangeMidContact() {
        // A finger becomes a palm (the engine cancels it), a palm ends, and the next contact in
        // the slot keeps the slot's tool type until the panel says otherwise (the kernel drops
        // a value equal to the slot's previous one).
        let h = Harness(Fixture.protocolB(toolType: true))
        let frames = h.run(
            Stream()
                .slot(0).track(1).x(10).y(10).slot(1).track(2).x(50).y(50).report()
                .slot(0).tool(2).slot(1).x(51).report()
                .slot(0).x(12).report()
                .slot(0).track(-1).report()
                .slot(0).track(3).report()
                .slot(0).tool(0).report())
        #expect(
            frames.map { $0.contacts.map(\.toolType) } == [
                [.finger, .finger], [.palm, .finger], [.palm, .finger], [.palm, .finger], [.palm, .finger], [.finger, .finger],
            ])
        #expect(frames[1].contacts.map(\.phase) == [.stationary, .moved])
        #expect(frames[1].contacts[0].id == frames[0].contacts[0].id)
        #expect(frames[3].contacts[0].phase == .ended)
        #expect(frames[4].contacts[0].phase == .began)
        #expect(h.ledger.violations.isEmpty)
    }

    @Test func cancelAllEndsEveryLiveContact() {
        let h = Harness(Fixture.protocolB())
        h.run(
            Stream().slot(0).track(1).x(10).y(10).slot(3).track(2).x(30).y(30).report()
                .slot(1).track(8).x(1))  // an unfinished frame: never shown, so not cancelled
        #expect(h.normalizer.cancelAll(at: 99))
        #expect(h.normalizer.frame.summary == ["0:cancelled@10,10#0", "1:cancelled@30,30#3"])
        #expect(h.normalizer.frame.time == 99)
        #expect(!h.normalizer.cancelAll(at: 100))
        // The device goes on afterwards with fresh contacts.
        let after = h.run(Stream(time: 200).slot(0).track(4).report())
        #expect(after.map(\.summary) == [["3:began@10,10#0"]])
    }

    @Test func aReportWithoutContactsProducesNoFrame() {
        let h = Harness(Fixture.protocolB())
        #expect(h.run(Stream().touch(false).report().report()).isEmpty)
        #expect(h.normalizer.counters.frames == 0)
    }

    @Test func idsAreUniqueEvenWhenTheDeviceRepeatsATrackingID() {
        let h = Harness(Fixture.protocolB())
        let frames = h.run(
            Stream().slot(0).track(5).x(1).y(1).slot(1).track(5).x(2).y(2).report()
                .slot(0).track(-1).slot(0).track(5).report())
        #expect(frames[0].contacts.map(\.id) == [0, 1])
        #expect(frames[1].summary == ["0:ended@1,1#0", "2:began@1,1#0", "1:stationary@2,2#1"])
        #expect(h.ledger.violations.isEmpty)
    }

    @Test func theContactBufferIsReusedAcrossFrames() {
        let normalizer = TouchNormalizer(device: DeviceID(1), info: Fixture.protocolB(slots: 10))!
        var stream = Stream()
        for slot in Int32(0)..<10 { stream = stream.slot(slot).track(slot).x(slot).y(slot) }
        stream = stream.report()
        for step in Int32(1)...50 {
            for slot in Int32(0)..<10 { stream = stream.slot(slot).x(slot + step) }
            stream = stream.report()
        }
        var addresses: Set<UInt> = []
        for event in stream.events where normalizer.feed(event) {
            _ = normalizer.frame.contacts.withUnsafeBufferPointer { addresses.insert(UInt(bitPattern: $0.baseAddress)) }
        }
        #expect(normalizer.counters.frames == 51)
        #expect(addresses.count == 1)
    }
}
