import LinuxSystem

/// A device description and its events in the format of `evemu-record`.
public struct EvemuRecording: Equatable, Sendable {
    /// The largest recording read: over an hour of ten fingers; a bigger file is a mistake.
    public static let maximumSize = 1 << 30

    public var info: TouchDeviceInfo
    /// Times in microseconds since the first event.
    public var events: [RawInputEvent]

    public init(info: TouchDeviceInfo, events: [RawInputEvent]) {
        self.info = info
        self.events = events
    }

    /// Reads a recording. The device comes from `descPath` when given, else from the
    /// recording's own header; event times are rebased to the first event.
    /// Errors: `SystemError` (the file cannot be read) or `EvemuError` (file:line, the problem
    /// and the offending text).
    public static func read(path: String, descPath: String? = nil) throws -> EvemuRecording {
        let events = try WholeFile.read(path, maximumSize: maximumSize)
        let desc = try descPath.map { descPath throws(SystemError) in (try WholeFile.read(descPath, maximumSize: maximumSize), descPath) }
        return try build(events, path: path, desc: desc)
    }

    /// Parses recording text; `path` only names it in errors. `desc` is a separate device
    /// description (text, path), as for header-less event files.
    public static func parse(_ text: String, path: String, desc: (text: String, path: String)? = nil) throws(EvemuError) -> EvemuRecording {
        try build(Array(text.utf8), path: path, desc: desc.map { (Array($0.text.utf8), $0.path) })
    }

    private static func build(_ text: [UInt8], path: String, desc: ([UInt8], String)?) throws(EvemuError) -> EvemuRecording {
        var recording = EvemuParser(path: path)
        try recording.parse(bytes: text)
        var device = recording
        if let (descText, descPath) = desc {
            device = EvemuParser(path: descPath)
            try device.parse(bytes: descText)
            guard device.hasDevice else {
                throw EvemuError(path: descPath, line: 0, problem: "no device description (N:, I:, B:, A: lines) in the --desc file")
            }
        } else if !recording.hasDevice {
            throw EvemuError(
                path: path, line: 0,
                problem: "no device description (N:, I:, B:, A: lines): pass the device's .desc file with --desc FILE")
        }
        try device.validateDevice()
        let ids = device.ids ?? (0, 0, 0, 0)
        let info = TouchDeviceInfo(
            name: device.name ?? "", bus: ids.bus, vendor: ids.vendor, product: ids.product,
            version: ids.version, capabilities: device.capabilities)
        var events = recording.events
        if let start = events.first?.time {
            for index in events.indices { events[index].time -= start }
        }
        return EvemuRecording(info: info, events: events)
    }

    /// Writes the recording as `evemu-record` does (EVEMU 1.3), readable by `evemu-play` and
    /// `evemu-device`.
    public func write(to path: String) throws(SystemError) {
        try WholeFile.write(serialized(), to: path)
    }

    /// The recording's text in EVEMU 1.3 format.
    public func serialized() -> String {
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(info.name)\"\n"
        out += "N: \(info.name)\n"
        out +=
            "I: \(InputCodes.hex4(info.bus)) \(InputCodes.hex4(info.vendor)) \(InputCodes.hex4(info.product)) \(InputCodes.hex4(info.version))\n"
        let caps = info.capabilities
        writeMask(caps.properties, bytes: Int(InputCodes.propMax) / 8 + 1, prefix: "P:", into: &out)
        writeMask(caps.types, bytes: Int(InputCodes.evMax) / 8 + 1, prefix: "B: 00", into: &out)
        for type in UInt16(1)...InputCodes.evMax {
            guard let max = InputCodes.maximumCode(ofType: type) else { continue }
            writeMask(caps.codes[type] ?? [], bytes: Int(max) / 8 + 1, prefix: "B: " + InputCodes.hex(type), into: &out)
        }
        for (code, axis) in caps.absInfo.sorted(by: { $0.key < $1.key }) {
            out += "A: \(InputCodes.hex(code)) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)\n"
        }
        for event in events {
            out +=
                "E: \(formatMicroseconds(event.time)) \(InputCodes.hex4(event.type)) \(InputCodes.hex4(event.code)) \(padded(event.value))"
            out += "\t# \(InputCodes.typeName(event.type)) / \(InputCodes.codeName(type: event.type, code: event.code))\n"
        }
        return out
    }

    /// Bit masks in lines of eight bytes, as evemu writes them.
    private func writeMask(_ bits: Set<UInt16>, bytes: Int, prefix: String, into out: inout String) {
        let lineCount = (bytes + 7) / 8
        for line in 0..<lineCount {
            out += prefix
            for index in line * 8..<(line + 1) * 8 {
                var byte: UInt8 = 0
                for bit in 0..<8 where bits.contains(UInt16(index * 8 + bit)) { byte |= 1 << bit }
                out += " " + InputCodes.hex(UInt16(byte))
            }
            out += "\n"
        }
    }

    /// `%04d`, as evemu writes values (`-001`).
    private func padded(_ value: Int32) -> String {
        let digits = String(value.magnitude)
        let width = value < 0 ? 3 : 4
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
