import ActionDispatch
import DaemonTestSupport
import GestureConfig
import GestureCore
import LinuxSystem
import SystemLoop
import TestSupport
import Testing
import TouchInput
import TouchPipeline

@testable import GestureDaemon

#if canImport(Glibc)
import Glibc
#endif

/// `TouchEncoder` and the daemon's `TouchForwarder` writing through a pipe (`InputEventFile`: the same records and system
/// calls as uinput, read back here): what the clone gets around a grab that had to wait for
/// the panel's contacts to lift.
struct TouchForwarderTests {
    /// A 4-slot protocol-B panel, 1000 x 500 units at 10 units/mm.
    static let panel: TouchDeviceInfo = {
        var caps = DeviceCapabilities(properties: [InputCodes.propDirect])
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTSlot, info: AbsInfo(minimum: 0, maximum: 3))
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTTrackingID, info: AbsInfo(minimum: 0, maximum: 65535))
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTPositionX, info: AbsInfo(minimum: 0, maximum: 1000, resolution: 10))
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTPositionY, info: AbsInfo(minimum: 0, maximum: 500, resolution: 10))
        caps.enable(type: InputCodes.evKey, code: InputCodes.btnTouch)
        return TouchDeviceInfo(name: "test panel", capabilities: caps)
    }()

    /// A double tap over the whole panel that holds new touches back until it fails.
    static let heldDoubleTap = """
        [gesture.wake]
        type = "tap"
        taps = 2
        delays_touches_began = true
        """

    /// A pipeline on `gestures` with the panel attached and a forwarder writing into a pipe.
    final class Rig {
        let pipeline: GesturePipeline
        let encoder: TouchEncoder
        let index: Int
        private let readEnd: Int32
        var time: Int64 = 1_000_000

        init(gestures: String, grab: TouchEncoder.Grab) throws {
            let configuration = try ConfigLoader.parse(
                text: "[screen]\nwidth = 1000\nheight = 500\n\n" + gestures, file: "test.toml")
            pipeline = GesturePipeline(configuration: configuration)
            let (id, _) = try #require(pipeline.addDevice(TouchForwarderTests.panel))
            index = try #require(pipeline.index(of: id))
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0)
            _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
            readEnd = fds[0]
            let forwarder = TouchForwarder(
                virtual: InputEventFile(fd: FileDescriptor(fds[1]), name: "pipe", slotCount: 4), clock: .monotonic)
            encoder = TouchEncoder(device: id, sink: forwarder, cancel: .release, grab: grab)
            pipeline.setEncoder(encoder, for: id)
        }

        deinit { close(readEnd) }

        /// One panel frame: `events` (type, code, value), `SYN_REPORT`, then a drain (the output stage).
        func frame(_ events: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in events {
                pipeline.feed(RawInputEvent(type: type, code: code, value: value, time: time), device: index)
            }
            pipeline.feed(RawInputEvent(type: InputCodes.evSyn, code: InputCodes.synReport, value: 0, time: time), device: index)
            _ = pipeline.drained()
            time += 10_000
        }

        func down(slot: Int32, id: Int32, x: Int32, y: Int32) {
            frame([
                (InputCodes.evAbs, InputCodes.absMTSlot, slot), (InputCodes.evAbs, InputCodes.absMTTrackingID, id),
                (InputCodes.evAbs, InputCodes.absMTPositionX, x), (InputCodes.evAbs, InputCodes.absMTPositionY, y),
                (InputCodes.evKey, InputCodes.btnTouch, 1),
            ])
        }

        func up(slot: Int32) {
            frame([
                (InputCodes.evAbs, InputCodes.absMTSlot, slot), (InputCodes.evAbs, InputCodes.absMTTrackingID, -1),
                (InputCodes.evKey, InputCodes.btnTouch, 0),
            ])
        }

        /// Engine time runs on by `us` (timers fire), then a drain (the output stage).
        func wait(_ us: Int64) {
            time += us
            pipeline.advance(to: time)
            _ = pipeline.drained()
        }

        /// What the clone got since the last call: (type, code, value), 24-byte records.
        func written() -> [(UInt16, UInt16, Int32)] {
            var out: [(UInt16, UInt16, Int32)] = []
            var record = [UInt8](repeating: 0, count: 24)
            while read(readEnd, &record, 24) == 24 {
                record.withUnsafeBytes {
                    out.append(
                        (
                            $0.loadUnaligned(fromByteOffset: 16, as: UInt16.self), $0.loadUnaligned(fromByteOffset: 18, as: UInt16.self),
                            $0.loadUnaligned(fromByteOffset: 20, as: Int32.self)
                        ))
                }
            }
            return out
        }

        /// The tracking ids the clone was given (new contacts), in order; -1 for lifts.
        func trackingIDs() -> [Int32] {
            written().filter { $0.0 == InputCodes.evAbs && $0.1 == InputCodes.absMTTrackingID }.map(\.2)
        }
    }

    /// Nothing of a contact down before the grab reaches the clone, not even a lift the
    /// engine held (`delays_touches_began`: shown, with its lift, only once the double tap
    /// fails, after the grab); a tap after the grab goes through whole.
    /// `status`'s "grab" field, and the words the daemon's log uses for the count.
    @Test func theGrabStateAsStatusShowsIt() {
        #expect(TouchEncoder.Grab.taken.description == "taken")
        #expect(TouchEncoder.Grab.waiting(contacts: 1).description == "waiting for 1 contact to lift")
        #expect(TouchEncoder.Grab.waiting(contacts: 3).description == "waiting for 3 contacts to lift")
    }

    @Test func contactsDownBeforeTheGrabNeverReachTheClone() throws {
        let rig = try Rig(gestures: Self.heldDoubleTap, grab: .waiting(contacts: 0))
        rig.down(slot: 0, id: 10, x: 500, y: 250)
        rig.frame([(InputCodes.evAbs, InputCodes.absMTPositionX, 502)])
        rig.encoder.waiting(contacts: 1)
        rig.up(slot: 0)
        #expect(rig.written().isEmpty)
        rig.encoder.grabbed(firstContact: rig.pipeline.devices[rig.index].normalizer.nextContactID)
        // The double tap fails now, so the engine shows the first tap: not on the clone.
        rig.wait(1_000_000)
        #expect(rig.written().isEmpty)
        #expect(rig.encoder.passed == 0)

        rig.down(slot: 0, id: 11, x: 100, y: 100)
        rig.up(slot: 0)
        rig.wait(1_000_000)
        #expect(rig.trackingIDs() == [0, -1])
        #expect(rig.encoder.passed == 1)
        #expect(rig.encoder.delayed == 1)
    }

    /// A touch held back and shown with its lift at once (the double tap failed after it
    /// lifted) goes down and up in two frames: within one frame libinput sees no touch.
    @Test func aHeldTapGoesDownAndUpInTwoFrames() throws {
        let rig = try Rig(gestures: Self.heldDoubleTap, grab: .taken)
        rig.down(slot: 0, id: 10, x: 500, y: 250)
        rig.up(slot: 0)
        #expect(rig.written().isEmpty)
        rig.wait(1_000_000)
        let written = rig.written()
        let isSyn = { (e: (UInt16, UInt16, Int32)) in e.0 == InputCodes.evSyn && e.1 == InputCodes.synReport }
        let down = try #require(written.firstIndex { $0 == (InputCodes.evAbs, InputCodes.absMTTrackingID, 0) })
        let up = try #require(written.firstIndex { $0 == (InputCodes.evAbs, InputCodes.absMTTrackingID, -1) })
        #expect(written[down..<up].contains(where: isSyn))
        #expect(written.count(where: isSyn) == 2)
        #expect(written.last.map(isSyn) == true)
    }

    /// Taken at once (no contact down): the first contact goes through, encoded as the
    /// kernel's own panels send it.
    @Test func aGrabTakenAtOnceForwardsEveryContact() throws {
        let rig = try Rig(gestures: "", grab: .taken)
        rig.down(slot: 2, id: 7, x: 300, y: 200)
        let written = rig.written()
        #expect(written.map(\.0) == [3, 3, 3, 3, 3, 1, 3, 3, 0])
        #expect(written.first! == (InputCodes.evAbs, InputCodes.absMTSlot, 0))
        #expect(written.contains { $0 == (InputCodes.evAbs, InputCodes.absMTPositionX, 300) })
        #expect(written.contains { $0 == (InputCodes.evKey, InputCodes.btnTouch, 1) })
        rig.up(slot: 2)
        #expect(rig.trackingIDs() == [-1])
        #expect(rig.encoder.grab == .taken)
    }

    /// A jump the health stage splits, on the clone: the finger lifts where it was, and a
    /// new touch with a tracking id of its own goes down where the finger is once the report
    /// after the jump confirmed it (the jump is held a frame), and lifts with it.
    @Test func aJumpIsALiftAndANewTouchOnTheClone() throws {
        let rig = try Rig(gestures: "[[device]]\n\n[device.health]\njump = \"20mm\"\n", grab: .taken)
        rig.down(slot: 0, id: 10, x: 100, y: 250)
        rig.frame([(InputCodes.evAbs, InputCodes.absMTPositionX, 120)])
        rig.frame([(InputCodes.evAbs, InputCodes.absMTPositionX, 700)])  // 58 mm in 10 ms
        rig.frame([(InputCodes.evAbs, InputCodes.absMTPositionX, 710)])
        rig.up(slot: 0)
        let written = rig.written()
        let ids = written.filter { $0.0 == InputCodes.evAbs && $0.1 == InputCodes.absMTTrackingID }.map(\.2)
        #expect(ids == [0, -1, 1, -1])
        let second = try #require(written.firstIndex { $0 == (InputCodes.evAbs, InputCodes.absMTTrackingID, 1) })
        let xs = written[second...].filter { $0.0 == InputCodes.evAbs && $0.1 == InputCodes.absMTPositionX }.map(\.2)
        #expect(xs == [710])
        #expect(rig.encoder.passed == 2 && rig.encoder.cancelled == 1)
    }

    /// Ten contacts going down: the slot, tracking id and position of each, the pointer
    /// emulation and `SYN_REPORT`, 43 events.
    static let tenFingerFrame: [RawInputEvent] = {
        var frame: [RawInputEvent] = []
        for s in 0..<10 {
            for (code, value) in [
                (InputCodes.absMTSlot, Int32(s)), (InputCodes.absMTTrackingID, Int32(s)),
                (InputCodes.absMTPositionX, Int32(50 * s)), (InputCodes.absMTPositionY, 100),
            ] {
                frame.append(RawInputEvent(type: InputCodes.evAbs, code: code, value: value, time: 0))
            }
        }
        frame.append(RawInputEvent(type: InputCodes.evKey, code: InputCodes.btnTouch, value: 1, time: 0))
        frame.append(RawInputEvent(type: InputCodes.evAbs, code: InputCodes.absX, value: 0, time: 0))
        frame.append(RawInputEvent(type: InputCodes.evSyn, code: InputCodes.synReport, value: 0, time: 0))
        return frame
    }()

    /// Each frame goes to the clone in one `write(2)` of whole `struct input_event` records,
    /// as uinput takes them (a datagram socket keeps each write a message of its own).
    @Test func eachFrameIsOneWriteOfWholeRecords() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let receiver = try UnixSocket.make(datagram: true)
        try UnixSocket.bind(receiver, to: dir.file("clone.sock"))
        let sender = try UnixSocket.make(datagram: true)
        try UnixSocket.connect(sender, to: dir.file("clone.sock"))
        let forwarder = TouchForwarder(virtual: InputEventFile(fd: sender, name: "datagram", slotCount: 10), clock: .monotonic)
        let frame = Self.tenFingerFrame
        for _ in 0..<3 { forwarder.write(frame, answering: nil) }
        var sizes: [Int] = []
        var message = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(receiver.rawValue, &message, message.count)  // non-blocking: -1 when drained
            guard n > 0 else { break }
            sizes.append(n)
            // The record's type and code (offsets 16 and 18 of the 24 bytes): the last is SYN_REPORT.
            let last = message.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: n - 8, as: UInt32.self) }
            #expect(last == 0)
        }
        #expect(sizes == [Int](repeating: frame.count * 24, count: 3))
        #expect(forwarder.failures == 0)
    }

    /// A write that fails (here a full non-blocking pipe: `EAGAIN`) is counted once for
    /// the frame, with the errno's text and the clone's name; the next frame is tried again.
    @Test func aFailedWriteIsCountedPerFrameWithItsErrnoAndPath() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        let forwarder = TouchForwarder(
            virtual: InputEventFile(fd: FileDescriptor(fds[1]), name: "clone pipe", slotCount: 10), clock: .monotonic)
        var filler = [UInt8](repeating: 0, count: 4096)
        while write(fds[1], &filler, filler.count) > 0 {}
        while write(fds[1], &filler, 1) > 0 {}
        forwarder.write(Self.tenFingerFrame, answering: nil)
        #expect(forwarder.failures == 1)
        #expect(forwarder.lastFailure?.description == "clone pipe: write failed: Resource temporarily unavailable")
        while read(fds[0], &filler, filler.count) > 0 {}
        forwarder.write(Self.tenFingerFrame, answering: nil)
        #expect(forwarder.failures == 1)
    }

    /// A frame's delay runs from the panel's kernel time to the loop's clock after the write:
    /// on a manual clock, exactly the time the test moved it by.
    @Test func delaysAreMeasuredOnTheLoopsClock() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let clock = ManualClock()
        let forwarder = TouchForwarder(
            virtual: InputEventFile(fd: FileDescriptor(fds[1]), name: "clone pipe", slotCount: 10), clock: .manual(clock))
        var buffer = [UInt8](repeating: 0, count: 4096)
        for delay: Microseconds in [3_000, 1_000, 2_000] {
            let panelTime = clock.now
            clock.advance(by: delay)
            forwarder.write(Self.tenFingerFrame, answering: panelTime)
            _ = read(fds[0], &buffer, buffer.count)
        }
        let percentiles = try #require(forwarder.delayPercentiles)
        #expect(percentiles.p50 == 2_000)
        #expect(percentiles.p99 == 2_000)
    }
}
