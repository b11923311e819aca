/// Reads the line format `evemu-record` writes (EVEMU 1.1 to 1.3, and header-less event
/// files): `N:` name, `I:` ids, `P:` property bytes, `B:` code bytes per type, `A:` absolute
/// axes, `E:` events; `#` starts a comment.
struct EvemuParser {
    let path: String
    private(set) var name: String?
    private(set) var ids: (bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16)?
    private(set) var capabilities = DeviceCapabilities()
    private(set) var events: [RawInputEvent] = []
    private var propertyBytes = 0
    private var maskBytes: [UInt16: Int] = [:]
    private var lineNumber = 0
    private var lineText = Substring()

    init(path: String) { self.path = path }

    /// True when the file described a device (N: or I: lines).
    var hasDevice: Bool { name != nil || ids != nil }

    mutating func parse(_ text: String) throws(EvemuError) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            lineText = line.last == "\r" ? line.dropLast() : line
            let trimmed = lineText.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.first == "#" { continue }
            guard trimmed.count >= 2, trimmed.dropFirst().first == ":" else {
                throw failure("not an evemu line (expected N:, I:, P:, B:, A: or E:)")
            }
            let body = trimmed.dropFirst(2)
            switch trimmed.first {
            case "N": name = String(body.drop { $0 == " " || $0 == "\t" })
            case "I": try parseIDs(fields(body))
            case "P": try parseProperties(fields(body))
            case "B": try parseMask(fields(body))
            case "A": try parseAxis(fields(body))
            case "E": try parseEvent(fields(body))
            default: throw failure("unknown line type '\(trimmed.prefix(2))' (expected N:, I:, P:, B:, A: or E:)")
            }
        }
    }

    /// Checks what needs the whole file: every enabled axis has its A: line.
    func validateDevice() throws(EvemuError) {
        for code in capabilities.codes[InputCodes.evAbs, default: []].sorted() where capabilities.absInfo[code] == nil {
            throw EvemuError(path: path, line: 0,
                             problem: "\(InputCodes.codeName(type: InputCodes.evAbs, code: code)) is enabled by a B: line but has no A: line")
        }
    }

    // MARK: - Lines

    private mutating func parseIDs(_ fields: [Substring]) throws(EvemuError) {
        guard fields.count == 4 else { throw failure("expected 'I: BUS VENDOR PRODUCT VERSION' (4 hex numbers)") }
        ids = (try hex16(fields[0], "bus"), try hex16(fields[1], "vendor"), try hex16(fields[2], "product"), try hex16(fields[3], "version"))
    }

    private mutating func parseProperties(_ fields: [Substring]) throws(EvemuError) {
        for field in fields {
            let byte = try hexByte(field)
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let property = propertyBytes * 8 + bit
                guard property <= Int(InputCodes.propMax) else { throw failure("property bit \(property) is above INPUT_PROP_MAX") }
                capabilities.properties.insert(UInt16(property))
            }
            propertyBytes += 1
        }
    }

    /// `B: TYPE BYTES...`; type 0's bytes are the event types, the others' the codes.
    private mutating func parseMask(_ fields: [Substring]) throws(EvemuError) {
        guard let typeField = fields.first else { throw failure("expected 'B: TYPE BYTE...'") }
        let type = try hex16(typeField, "event type")
        guard type <= InputCodes.evMax else { throw failure("event type 0x\(InputCodes.hex(type)) is above EV_MAX") }
        var offset = maskBytes[type, default: 0]
        for field in fields.dropFirst() {
            let byte = try hexByte(field)
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let code = offset * 8 + bit
                if type == InputCodes.evSyn {
                    guard code <= Int(InputCodes.evMax) else { throw failure("event type bit \(code) is above EV_MAX") }
                    capabilities.types.insert(UInt16(code))
                } else {
                    guard let max = InputCodes.maximumCode(ofType: type), code <= Int(max) else {
                        throw failure("code bit \(code) is above the maximum of \(InputCodes.typeName(type))")
                    }
                    capabilities.enable(type: type, code: UInt16(code))
                }
            }
            offset += 1
        }
        maskBytes[type] = offset
    }

    /// `A: CODE MIN MAX FUZZ FLAT [RESOLUTION]` (EVEMU 1.1 has no resolution).
    private mutating func parseAxis(_ fields: [Substring]) throws(EvemuError) {
        guard fields.count == 5 || fields.count == 6 else {
            throw failure("expected 'A: CODE MIN MAX FUZZ FLAT [RESOLUTION]'")
        }
        let code = try hex16(fields[0], "axis code")
        guard let max = InputCodes.maximumCode(ofType: InputCodes.evAbs), code <= max else {
            throw failure("axis code 0x\(InputCodes.hex(code)) is above ABS_MAX")
        }
        let numbers = try fields.dropFirst().map { field throws(EvemuError) in try decimal(field, "axis value") }
        capabilities.absInfo[code] = AbsInfo(minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                                             resolution: numbers.count == 5 ? numbers[4] : 0)
    }

    /// `E: SECONDS.MICROS TYPE CODE VALUE`.
    private mutating func parseEvent(_ fields: [Substring]) throws(EvemuError) {
        guard fields.count >= 4 else { throw failure("truncated event: expected 'E: SECONDS.MICROS TYPE CODE VALUE'") }
        guard fields.count == 4 else { throw failure("unexpected text after the event's value") }
        let time = try timestamp(fields[0])
        let type = try hex16(fields[1], "event type")
        let code = try hex16(fields[2], "event code")
        let value = try decimal(fields[3], "event value")
        guard let max = InputCodes.maximumCode(ofType: type) else {
            throw failure("unknown event type 0x\(InputCodes.hex(type))")
        }
        guard code <= max else {
            throw failure("code 0x\(InputCodes.hex(code)) is above \(InputCodes.typeName(type))'s maximum 0x\(InputCodes.hex(max))")
        }
        if let previous = events.last?.time, time < previous {
            throw failure("time goes backwards (\(formatMicroseconds(time)) after \(formatMicroseconds(previous)))")
        }
        events.append(RawInputEvent(type: type, code: code, value: value, time: time))
    }

    // MARK: - Fields

    private func fields(_ body: Substring) -> [Substring] {
        let content = body.firstIndex(of: "#").map { body[..<$0] } ?? body
        return content.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    private func hex16(_ field: Substring, _ what: String) throws(EvemuError) -> UInt16 {
        var digits = field
        if digits.hasPrefix("0x") { digits = digits.dropFirst(2) }
        guard let value = UInt16(digits, radix: 16) else { throw failure("\(what) '\(field)' is not a hexadecimal number up to ffff") }
        return value
    }

    private func hexByte(_ field: Substring) throws(EvemuError) -> UInt8 {
        guard let value = UInt8(field, radix: 16) else { throw failure("'\(field)' is not a hexadecimal byte") }
        return value
    }

    private func decimal(_ field: Substring, _ what: String) throws(EvemuError) -> Int32 {
        guard let value = Int32(field) else { throw failure("\(what) '\(field)' is not a 32-bit decimal number") }
        return value
    }

    /// `SECONDS.MICROS` to microseconds; up to six fraction digits.
    private func timestamp(_ field: Substring) throws(EvemuError) -> Int64 {
        let parts = field.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...6).contains(parts[1].count),
              let seconds = Int64(parts[0]), seconds >= 0, seconds < Int64.max / 1_000_000,
              parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let fraction = Int64(parts[1]) else {
            throw failure("time '\(field)' is not SECONDS.MICROS")
        }
        var micros = fraction
        for _ in parts[1].count..<6 { micros *= 10 }
        return seconds * 1_000_000 + micros
    }

    private func failure(_ problem: String) -> EvemuError {
        EvemuError(path: path, line: lineNumber, problem: problem, text: String(lineText))
    }
}
