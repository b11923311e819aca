import TouchInput

/// Raw evdev events of one or more devices, cut into frames (each ends with its
/// `SYN_REPORT`), ready to be fed in a loop.
public struct InputStream: Sendable {
    /// The devices, in the order the runner attaches them (frames name them by index).
    public var devices: [TouchDeviceInfo]
    public var events: [RawInputEvent] = []
    /// `frameEnds[f]`: one past the last event of frame f.
    public var frameEnds: [Int] = []
    /// `frameDevices[f]`: the index in `devices` of frame f's device.
    public var frameDevices: [Int] = []

    public init(devices: [TouchDeviceInfo]) { self.devices = devices }

    public var frameCount: Int { frameEnds.count }
    /// The time of the last event, µs.
    public var endTime: Int64 { events.last?.time ?? 0 }

    /// Appends events of `device`, closing a frame after every `SYN_REPORT`; events after the
    /// last one are dropped (they never complete a frame).
    public mutating func append(_ newEvents: [RawInputEvent], device: Int, timeOffset: Int64 = 0) {
        for var event in newEvents {
            event.time += timeOffset
            events.append(event)
            if event.type == InputCodes.evSyn && event.code == InputCodes.synReport {
                frameEnds.append(events.count)
                frameDevices.append(device)
            }
        }
        events.removeLast(events.count - (frameEnds.last ?? 0))
    }
}
