import ArgumentParser
import Glibc
import JSONOutput
import TouchInput

/// `gesturectl devices`: the touchscreens udev knows, opened through libevdev for their axes.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List touchscreens: node, name, ids, axis ranges, resolution, slots.")

    @Flag(help: "One JSON object per touchscreen, one per line (none found: one object with the reason).")
    var json = false

    @Flag(help: "List every input event device, touchscreen or not.")
    var all = false

    func run() throws {
        let devices = try TouchscreenDiscovery().inputDevices()
        let listed = all ? devices : devices.filter(\.isTouchscreen)
        guard !listed.isEmpty else {
            let reason = Self.whyNoTouchscreen(inputDevices: devices.count)
            if json {
                print("{\"touchscreens\":[],\"reason\":\(JSONText.string(reason))}")
            } else {
                print("no touchscreen found: \(reason)")
            }
            return
        }
        for (index, device) in listed.enumerated() {
            // udev and sysfs give name and capabilities; axis ranges need the node itself.
            var info = device.info
            var failure: String?
            do {
                info = try EvdevDevice(path: device.devnode).info
            } catch {
                failure = error.description
            }
            if json {
                print(DeviceFormatter.json(info, udev: device.properties, error: failure))
            } else {
                if index > 0 { print() }
                print(DeviceFormatter.text(info, udev: device.properties))
                if !device.isTouchscreen { print("  (not a touchscreen)") }
                if let failure { print("  cannot open: " + failure.replacingNewlines) }
            }
        }
    }

    /// Why the list is empty, in terms the user can act on.
    static func whyNoTouchscreen(inputDevices: Int) -> String {
        if access("/dev/input", F_OK) != 0 {
            return "/dev/input does not exist: this machine (or container) has no input devices. "
                + "Connect a touchscreen, or pass one into the container (e.g. --device /dev/input/eventN)."
        }
        if inputDevices == 0 {
            return "udev lists no input event devices under /sys/class/input."
        }
        return "\(inputDevices) input device\(inputDevices == 1 ? "" : "s"), none of them a touchscreen "
            + "(INPUT_PROP_DIRECT with ABS_MT_POSITION_X/Y, or udev's ID_INPUT_TOUCHSCREEN=1). "
            + "'gesturectl devices --all' lists them."
    }
}

extension String {
    /// Continuation lines indented under the first.
    var replacingNewlines: String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n    ")
    }
}
