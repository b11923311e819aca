import GestureCore

@testable import TouchInput

/// Test devices and event streams.
enum Fixture {
    static let x = AbsInfo(minimum: 0, maximum: 1000, resolution: 10)
    static let y = AbsInfo(minimum: 0, maximum: 500, resolution: 10)

    /// A protocol-B touchscreen with `slots` slots.
    static func protocolB(
        slots: Int32 = 4, pressure: Bool = false, touchMajor: Bool = false,
        toolType: Bool = false, btnTouch: Bool = true
    ) -> TouchDeviceInfo {
        var caps = DeviceCapabilities(properties: [InputCodes.propDirect])
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTSlot, info: AbsInfo(minimum: 0, maximum: slots - 1))
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTTrackingID, info: AbsInfo(minimum: 0, maximum: 65535))
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTPositionX, info: x)
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTPositionY, info: y)
        if pressure { caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTPressure, info: AbsInfo(minimum: 0, maximum: 255)) }
        if touchMajor { caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTTouchMajor, info: AbsInfo(minimum: 0, maximum: 15)) }
        if toolType { caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTToolType, info: AbsInfo(minimum: 0, maximum: 2)) }
        if btnTouch { caps.enable(type: InputCodes.evKey, code: InputCodes.btnTouch) }
        return TouchDeviceInfo(name: "test protocol B", capabilities: caps)
    }

    /// A protocol-A device (MT positions, no slots), as the N-Trig.
    static func protocolA() -> TouchDeviceInfo {
        var caps = DeviceCapabilities()
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTPositionX, info: x)
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTPositionY, info: y)
        caps.enable(type: InputCodes.evKey, code: InputCodes.btnTouch)
        return TouchDeviceInfo(name: "test protocol A", capabilities: caps)
    }

    /// `ABS_X`/`ABS_Y` and `BTN_TOUCH` only.
    static func singleTouch() -> TouchDeviceInfo {
        var caps = DeviceCapabilities(properties: [InputCodes.propDirect])
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absX, info: x)
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absY, info: y)
        caps.enable(type: InputCodes.evKey, code: InputCodes.btnTouch)
        return TouchDeviceInfo(name: "test single touch", capabilities: caps)
    }
}

/// Builds event streams frame by frame: `Stream().slot(1).track(7).x(10).report()`.
struct Stream {
    private(set) var events: [RawInputEvent] = []
    var time: Int64 = 0

    init(time: Int64 = 0) { self.time = time }

    private func add(_ type: UInt16, _ code: UInt16, _ value: Int32) -> Stream {
        var copy = self
        copy.events.append(RawInputEvent(type: type, code: code, value: value, time: time))
        return copy
    }
    func slot(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absMTSlot, v) }
    func track(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absMTTrackingID, v) }
    func x(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absMTPositionX, v) }
    func y(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absMTPositionY, v) }
    func pressure(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absMTPressure, v) }
    func major(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absMTTouchMajor, v) }
    func tool(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absMTToolType, v) }
    func absX(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absX, v) }
    func absY(_ v: Int32) -> Stream { add(InputCodes.evAbs, InputCodes.absY, v) }
    func touch(_ down: Bool) -> Stream { add(InputCodes.evKey, InputCodes.btnTouch, down ? 1 : 0) }
    /// Any event, advertised by the device or not.
    func raw(_ type: UInt16, _ code: UInt16, _ v: Int32) -> Stream { add(type, code, v) }
    func mtReport() -> Stream { add(InputCodes.evSyn, InputCodes.synMTReport, 0) }
    func dropped() -> Stream { add(InputCodes.evSyn, InputCodes.synDropped, 0) }
    /// Ends the frame and advances time by 10 ms.
    func report() -> Stream {
        var copy = add(InputCodes.evSyn, InputCodes.synReport, 0)
        copy.time += 10_000
        return copy
    }
}

/// A normalizer plus the frames it produced, as value snapshots.
final class Harness {
    let normalizer: TouchNormalizer
    var frames: [TouchFrame] = []
    var ledger = ContactLedger()

    init(_ info: TouchDeviceInfo) {
        normalizer = TouchNormalizer(device: DeviceID(7), info: info)!
    }

    /// Feeds the events and returns the frames they produced.
    @discardableResult
    func run(_ events: [RawInputEvent]) -> [TouchFrame] {
        var produced: [TouchFrame] = []
        for event in events where normalizer.feed(event) {
            let frame = normalizer.frame
            ledger.record(frame)
            produced.append(TouchFrame(device: frame.device, time: frame.time, contacts: Array(frame.contacts)))
        }
        frames += produced
        return produced
    }

    @discardableResult
    func run(_ stream: Stream) -> [TouchFrame] { run(stream.events) }
}

extension TouchFrame {
    /// `id:phase@x,y` per contact, for compact expectations.
    var summary: [String] { contacts.map { "\($0.id):\($0.phase)@\($0.x),\($0.y)#\($0.slot)" } }
}
