import GestureControl
import GestureCore
import Logging
import TouchInput
import TouchPipeline

/// Where the daemon's raw input comes from: live touchscreens, or a recording played on
/// the loop's timer. Sources feed the pipeline directly from their callbacks.
protocol InputSource: AnyObject {
    /// Feeds everything already pending. The daemon calls it before the engine's timers
    /// run, so that a deadline never fires ahead of input that came before it.
    func drain()
    /// The device node (or recording) of an attached device, for status.
    func path(of device: DeviceID) -> String?
    /// The device write of an attached device's virtual clone, while it is in passthrough.
    func forwarder(of device: DeviceID) -> TouchForwarder?
    /// Why no device of this source can be grabbed for `passthrough = true`; nil for devices.
    var grabImpossible: String? { get }
    /// Devices found but not in use, with why and what to do.
    var unusable: [UnusableDevice] { get }
    /// The pipeline has a new configuration: live input applies its `ignore` rules.
    func configurationChanged()
    /// The wake's output was handed on (`--replay` arms its timer for the next frame now,
    /// not before the lines and actions of this one).
    func flushed()
}

extension InputSource {
    func configurationChanged() {}
    func flushed() {}
    func forwarder(of device: DeviceID) -> TouchForwarder? { nil }
    var grabImpossible: String? { nil }
}

extension GesturePipeline {
    /// Attaches the device of a source that is not a device node (`--replay`, `--stream`),
    /// logging its unit warning; `source` names it in the log and errors.
    func attachDevice(_ info: TouchDeviceInfo, source: String, path: String, logger: Logger) throws(StartupError) -> DeviceID {
        guard let (id, warning) = addDevice(info) else {
            throw StartupError(source: source, message: "\(path): libmtdev cannot convert this protocol-A device")
        }
        if let warning { logger.warning("\(source): \(warning)") }
        return id
    }
}
