import GestureCore
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// Synthetic touchscreen input: `contacts` fingers doing taps, drags, pinches and rotations
/// at 240 Hz, in turn at each tile of an 8x8 grid of the screen, as raw protocol-B events.
public enum GeneratedStream {
    /// A 10-slot protocol-B panel covering the 1920x1080 screen, 2 units per px, 8 units/mm
    /// (0.25 mm per px: a 480x270 mm kiosk screen).
    public static let device: TouchDeviceInfo = {
        var caps = DeviceCapabilities(properties: [InputCodes.propDirect])
        caps.enable(type: InputCodes.evKey, code: InputCodes.btnTouch)
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTSlot, info: AbsInfo(minimum: 0, maximum: 9))
        caps.enable(type: InputCodes.evAbs, code: InputCodes.absMTTrackingID, info: AbsInfo(minimum: 0, maximum: 65535))
        caps.enable(
            type: InputCodes.evAbs, code: InputCodes.absMTPositionX,
            info: AbsInfo(minimum: 0, maximum: unitsX - 1, resolution: 8))
        caps.enable(
            type: InputCodes.evAbs, code: InputCodes.absMTPositionY,
            info: AbsInfo(minimum: 0, maximum: unitsY - 1, resolution: 8))
        return TouchDeviceInfo(
            name: "bench synthetic panel", bus: 0x18, vendor: 0x1234, product: 0x5678,
            capabilities: caps)
    }()

    static let unitsX: Int32 = 3840
    static let unitsY: Int32 = 2160
    /// 240 Hz.
    static let frameInterval: Int64 = 4_167
    /// Between two gestures: longer than the double-tap interval, so taps settle.
    static let pause: Int64 = 400_000
    /// Frames of motion in a drag, pinch or rotation.
    static let motionFrames = 60

    enum Motion: CaseIterable { case tap, drag, pinch, rotation }

    /// One cycle per grid tile (64), each tile getting the next of the four motions.
    public static func make(contacts: Int) -> InputStream {
        precondition((1...10).contains(contacts), "the synthetic panel has 10 slots")
        var writer = Writer(contacts: contacts)
        let motions = Motion.allCases
        for tile in 0..<64 {
            let center = (x: (Double(tile % 8) + 0.5) * 240, y: (Double(tile / 8) + 0.5) * 135)
            writer.gesture(motions[tile % motions.count], around: center)
        }
        var stream = InputStream(devices: [device])
        stream.append(writer.events, device: 0)
        return stream
    }

    /// Writes the evdev events of the fingers, frame by frame.
    struct Writer {
        let contacts: Int
        var events: [RawInputEvent] = []
        var time: Int64 = 0
        var nextTrackingID: Int32 = 1
        /// Last position written per slot (the kernel drops unchanged values).
        var last: [(x: Int32, y: Int32)?]

        init(contacts: Int) {
            self.contacts = contacts
            last = Array(repeating: nil, count: contacts)
        }

        mutating func gesture(_ motion: Motion, around center: (x: Double, y: Double)) {
            let steps = motion == .tap ? 1 : GeneratedStream.motionFrames
            for step in 0...steps {
                let f = Double(step) / Double(steps)
                let places = (0..<contacts).map { position(motion, finger: $0, progress: f, center: center) }
                frame(down: step == 0, places)
            }
            if motion == .tap { time += 60_000 - GeneratedStream.frameInterval }
            lift()
            time += GeneratedStream.pause
        }

        /// Fingers on a circle around the center: a drag moves the circle, a pinch shrinks it,
        /// a rotation turns it. One finger sits at the center (and only drags move it).
        func position(_ motion: Motion, finger: Int, progress f: Double, center: (x: Double, y: Double)) -> (x: Double, y: Double) {
            var radius = contacts == 1 ? 0.0 : 90.0
            var angle = 2 * Double.pi * Double(finger) / Double(contacts)
            var c = center
            switch motion {
            case .tap: break
            case .drag: c.x += 180 * f - 90
            case .pinch: radius *= 1.6 - f
            case .rotation: angle += 1.2 * f
            }
            return (c.x + radius * cos(angle), c.y + radius * sin(angle))
        }

        mutating func frame(down: Bool, _ places: [(x: Double, y: Double)]) {
            for (finger, p) in places.enumerated() {
                let x = Int32((p.x * 2).rounded()).clamped(0, GeneratedStream.unitsX - 1)
                let y = Int32((p.y * 2).rounded()).clamped(0, GeneratedStream.unitsY - 1)
                let old = last[finger]
                guard down || old?.x != x || old?.y != y else { continue }
                emit(InputCodes.evAbs, InputCodes.absMTSlot, Int32(finger))
                if down {
                    emit(InputCodes.evAbs, InputCodes.absMTTrackingID, nextTrackingID)
                    nextTrackingID += 1
                }
                if down || old?.x != x { emit(InputCodes.evAbs, InputCodes.absMTPositionX, x) }
                if down || old?.y != y { emit(InputCodes.evAbs, InputCodes.absMTPositionY, y) }
                last[finger] = (x, y)
            }
            if down { emit(InputCodes.evKey, InputCodes.btnTouch, 1) }
            emit(InputCodes.evSyn, InputCodes.synReport, 0)
            time += GeneratedStream.frameInterval
        }

        mutating func lift() {
            for finger in 0..<contacts {
                emit(InputCodes.evAbs, InputCodes.absMTSlot, Int32(finger))
                emit(InputCodes.evAbs, InputCodes.absMTTrackingID, -1)
            }
            emit(InputCodes.evKey, InputCodes.btnTouch, 0)
            emit(InputCodes.evSyn, InputCodes.synReport, 0)
            time += GeneratedStream.frameInterval
        }

        mutating func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(RawInputEvent(type: type, code: code, value: value, time: time))
        }
    }
}

extension Int32 {
    fileprivate func clamped(_ low: Int32, _ high: Int32) -> Int32 { Swift.min(Swift.max(self, low), high) }
}

extension GeneratedStream {
    /// `count` one-finger taps, 200 ms apart, each held 50 ms, moving over the screen. The
    /// lift of tap k is the frame at `0.2 * k + 0.05` s.
    public static func taps(count: Int) -> [RawInputEvent] {
        var writer = Writer(contacts: 1)
        for k in 0..<count {
            writer.time = Int64(k) * 200_000
            let place = (x: 200 + Double(k % 8) * 200, y: 200 + Double(k / 8 % 4) * 200)
            writer.frame(down: true, [place])
            writer.time = Int64(k) * 200_000 + 50_000
            writer.lift()
        }
        return writer.events
    }

    /// `contacts` fingers down for `seconds`, circling slowly together, one frame every
    /// 1/240 s: a busy, continuous input stream.
    public static func circling(contacts: Int, seconds: Int) -> [RawInputEvent] {
        var writer = Writer(contacts: contacts)
        let frames = seconds * 240
        for step in 0..<frames {
            let turn = Double(step) / 240 * 0.5
            let places = (0..<contacts).map { finger -> (x: Double, y: Double) in
                let angle = 2 * Double.pi * Double(finger) / Double(contacts) + turn
                return (960 + 300 * cos(angle), 540 + 300 * sin(angle))
            }
            writer.frame(down: step == 0, places)
        }
        writer.lift()
        return writer.events
    }
}
