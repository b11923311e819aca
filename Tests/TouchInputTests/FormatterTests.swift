import GestureCore
import Testing

@testable import TouchInput

@Suite struct FormatterTests {
    static let frame = TouchFrame(
        device: DeviceID(1), time: 1_008_818,
        contacts: [
            Contact(
                id: 3, slot: 0, phase: .began, x: 810, y: 1650, normalizedX: 0.5065666, normalizedY: 0.125,
                pressure: 215, touchMajor: nil, toolType: .finger),
            Contact(id: 4, slot: 2, phase: .cancelled, x: -1, y: 0, normalizedX: -0.001, normalizedY: 0, toolType: .pen),
        ])

    @Test func framesAsText() {
        #expect(
            FrameFormatter.text(Self.frame)
                == "1.008818  #3 began slot 0 (810, 1650) [0.507, 0.125] pressure 215; #4 cancelled slot 2 (-1, 0) [-0.001, 0] pen")
    }

    @Test func framesAsJSON() {
        #expect(
            FrameFormatter.json(Self.frame) == """
                {"time":1008818,"touches":[{"id":3,"slot":0,"phase":"began","x":810,"y":1650,"nx":0.506567,"ny":0.125,"pressure":215,"tool":"finger"},\
                {"id":4,"slot":2,"phase":"cancelled","x":-1,"y":0,"nx":-0.001,"ny":0,"tool":"pen"}]}
                """)
    }

    @Test func devicesAsTextAndJSON() {
        var info = Fixture.protocolB(slots: 10, pressure: true)
        info.bus = 0x18
        info.vendor = 0x03eb
        info.product = 0x8409
        info.devnode = "/dev/input/event4"
        let udev = ["ID_PATH": "platform-i2c", "ID_INPUT_TOUCHSCREEN": "1"]
        #expect(
            DeviceFormatter.text(info, udev: udev) == """
                /dev/input/event4  "test protocol B"
                  ids: i2c 03eb:8409 version 0000
                  protocol b, 10 slots, direct
                  x: 0..1000 (10 units/mm)  y: 0..500 (10 units/mm)
                  reports: pressure
                  udev: ID_PATH=platform-i2c ID_INPUT_TOUCHSCREEN=1
                  calibration: none
                """)
        #expect(
            DeviceFormatter.json(info, udev: udev, error: "denied") == """
                {"devnode":"/dev/input/event4","name":"test protocol B","bus":"i2c","vendor":"03eb","product":"8409","version":"0000",\
                "protocol":"b","slots":10,"direct":true,"x":{"min":0,"max":1000,"resolution":10},"y":{"min":0,"max":500,"resolution":10},\
                "pressure":true,"touchMajor":false,"toolType":false,"udev":{"ID_INPUT_TOUCHSCREEN":"1","ID_PATH":"platform-i2c"},\
                "calibration":{"matrix":[1,0,0,0,1,0],"source":"none"},"error":"denied"}
                """)
    }

    /// The matrix udev gives libinput, as `devices` shows it: the one in force, or why not.
    @Test func devicesShowUdevCalibration() {
        let info = Fixture.protocolB(slots: 10, pressure: true)
        let rotated = ["LIBINPUT_CALIBRATION_MATRIX": "0 -1 1 1 0 0"]
        #expect(
            DeviceFormatter.text(info, udev: rotated).contains(
                "\n  calibration: 0 -1 1 1 0 0 from udev LIBINPUT_CALIBRATION_MATRIX (applied unless a [[device]] rule sets calibration)"))
        #expect(DeviceFormatter.json(info, udev: rotated).contains(#""calibration":{"matrix":[0,-1,1,1,0,0],"source":"udev"}"#))
        let broken = ["LIBINPUT_CALIBRATION_MATRIX": "0 -1 1"]
        #expect(
            DeviceFormatter.text(info, udev: broken).contains(
                #"calibration: none: udev LIBINPUT_CALIBRATION_MATRIX "0 -1 1" is not 6 numbers (ignored, as libinput does)"#))
        #expect(DeviceFormatter.json(info, udev: broken).contains(#""source":"invalid""#))
    }
}
