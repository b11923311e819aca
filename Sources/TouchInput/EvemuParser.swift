/// Reads the line format `evemu-record` writes (EVEMU 1.1 to 1.3, and header-less event
/// files): `N:` name, `I:` ids, `P:` property bytes, `B:` code bytes per type, `A:` absolute
/// axes, `E:` events; `#` starts a comment.
///
/// Works on UTF-8 bytes: recordings reach millions of events, and character-wise string
/// handling made reading 20 times slower than normalizing.
struct EvemuParser {
    let path: String
    private(set) var name: String?
    private(set) var ids: (bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16)?
    private(set) var capabilities = DeviceCapabilities()
    private(set) var events: [RawInputEvent] = []
    private var propertyBytes = 0
    private var maskBytes: [UInt16: Int] = [:]
    /// The line and text of the B: line that enabled each absolute axis.
    private var axisEnabledAt: [UInt16: (line: Int, text: String)] = [:]
    private var lineNumber = 0
    private var line: ArraySlice<UInt8> = []

    init(path: String) { self.path = path }

    /// True when the file described a device (N: or I: lines).
    var hasDevice: Bool { name != nil || ids != nil }

    mutating func parse(bytes: [UInt8]) throws(EvemuError) {
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            lineNumber += 1
            line = bytes[start..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            try parseLine()
            start = end + 1
        }
    }

    /// Checks what needs the whole file: every enabled axis has its A: line.
    func validateDevice() throws(EvemuError) {
        for code in capabilities.codes[InputCodes.evAbs, default: []].sorted() where capabilities.absInfo[code] == nil {
            let enabled = axisEnabledAt[code]
            throw EvemuError(
                path: path, line: enabled?.line ?? 0,
                problem: "\(InputCodes.codeName(type: InputCodes.evAbs, code: code)) is enabled by this B: line but has no A: line",
                text: enabled?.text ?? "")
        }
    }

    // MARK: - Lines

    private mutating func parseLine() throws(EvemuError) {
        let trimmed = line.drop { $0 == Self.space || $0 == Self.tab }
        guard let kind = trimmed.first, kind != UInt8(ascii: "#") else { return }
        guard trimmed.count >= 2, trimmed[trimmed.startIndex + 1] == UInt8(ascii: ":") else {
            throw failure("not an evemu line (expected N:, I:, P:, B:, A: or E:)")
        }
        var fields = FieldScanner(trimmed.dropFirst(2))
        switch kind {
        case UInt8(ascii: "E"): try parseEvent(&fields)
        case UInt8(ascii: "N"): name = String(decoding: trimmed.dropFirst(2).drop { $0 == Self.space || $0 == Self.tab }, as: UTF8.self)
        case UInt8(ascii: "I"): try parseIDs(&fields)
        case UInt8(ascii: "P"): try parseProperties(&fields)
        case UInt8(ascii: "B"): try parseMask(&fields)
        case UInt8(ascii: "A"): try parseAxis(&fields)
        default:
            throw failure("unknown line type '\(String(decoding: trimmed.prefix(2), as: UTF8.self))' (expected N:, I:, P:, B:, A: or E:)")
        }
    }

    private mutating func parseIDs(_ fields: inout FieldScanner) throws(EvemuError) {
        let usage = "expected 'I: BUS VENDOR PRODUCT VERSION' (4 hex numbers)"
        let bus = try hex16(fields.next(), "bus", usage)
        let vendor = try hex16(fields.next(), "vendor", usage)
        let product = try hex16(fields.next(), "product", usage)
        let version = try hex16(fields.next(), "version", usage)
        guard fields.next() == nil else { throw failure(usage) }
        ids = (bus, vendor, product, version)
    }

    private mutating func parseProperties(_ fields: inout FieldScanner) throws(EvemuError) {
        while let field = fields.next() {
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
    private mutating func parseMask(_ fields: inout FieldScanner) throws(EvemuError) {
        let type = try hex16(fields.next(), "event type", "expected 'B: TYPE BYTE...'")
        guard type <= InputCodes.evMax else { throw failure("event type 0x\(InputCodes.hex(type)) is above EV_MAX") }
        var offset = maskBytes[type, default: 0]
        while let field = fields.next() {
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
                    if type == InputCodes.evAbs && axisEnabledAt[UInt16(code)] == nil {
                        axisEnabledAt[UInt16(code)] = (lineNumber, String(decoding: line, as: UTF8.self))
                    }
                }
            }
            offset += 1
        }
        maskBytes[type] = offset
    }

    /// `A: CODE MIN MAX FUZZ FLAT [RESOLUTION]` (EVEMU 1.1 has no resolution).
    private mutating func parseAxis(_ fields: inout FieldScanner) throws(EvemuError) {
        let usage = "expected 'A: CODE MIN MAX FUZZ FLAT [RESOLUTION]'"
        let code = try hex16(fields.next(), "axis code", usage)
        guard let max = InputCodes.maximumCode(ofType: InputCodes.evAbs), code <= max else {
            throw failure("axis code 0x\(InputCodes.hex(code)) is above ABS_MAX")
        }
        var numbers: [Int32] = []
        while let field = fields.next() { numbers.append(try decimal(field, "axis value", usage)) }
        guard numbers.count == 4 || numbers.count == 5 else { throw failure(usage) }
        if code == InputCodes.absMTSlot && Int64(numbers[1]) + 1 > Int64(TouchDeviceInfo.maximumSlots) {
            throw failure(
                "ABS_MT_SLOT maximum \(numbers[1]) declares \(Int64(numbers[1]) + 1) slots; at most \(TouchDeviceInfo.maximumSlots) are supported (maximum \(TouchDeviceInfo.maximumSlots - 1))"
            )
        }
        capabilities.absInfo[code] = AbsInfo(
            minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
            resolution: numbers.count == 5 ? numbers[4] : 0)
    }

    /// `E: SECONDS.MICROS TYPE CODE VALUE`.
    private mutating func parseEvent(_ fields: inout FieldScanner) throws(EvemuError) {
        let usage = "truncated event: expected 'E: SECONDS.MICROS TYPE CODE VALUE'"
        let time = try timestamp(fields.next(), usage)
        let type = try hex16(fields.next(), "event type", usage)
        let code = try hex16(fields.next(), "event code", usage)
        let value = try decimal(fields.next(), "event value", usage)
        guard fields.next() == nil else { throw failure("unexpected text after the event's value") }
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

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// The space- or tab-separated fields of a line, up to a `#` comment.
    private struct FieldScanner {
        private var rest: ArraySlice<UInt8>

        init(_ text: ArraySlice<UInt8>) { rest = text }

        mutating func next() -> ArraySlice<UInt8>? {
            rest = rest.drop { $0 == EvemuParser.space || $0 == EvemuParser.tab }
            guard let first = rest.first, first != UInt8(ascii: "#") else { return nil }
            let end = rest.firstIndex { $0 == EvemuParser.space || $0 == EvemuParser.tab } ?? rest.endIndex
            defer { rest = rest[end...] }
            return rest[..<end]
        }
    }

    private func text(_ field: ArraySlice<UInt8>) -> String { String(decoding: field, as: UTF8.self) }

    private func hex16(_ field: ArraySlice<UInt8>?, _ what: String, _ usage: String) throws(EvemuError) -> UInt16 {
        guard let field else { throw failure(usage) }
        var digits = field
        if digits.starts(with: [UInt8(ascii: "0"), UInt8(ascii: "x")]) { digits = digits.dropFirst(2) }
        guard let value = Self.unsigned(digits, radix: 16, limit: UInt64(UInt16.max)) else {
            throw failure("\(what) '\(text(field))' is not a hexadecimal number up to ffff")
        }
        return UInt16(value)
    }

    private func hexByte(_ field: ArraySlice<UInt8>) throws(EvemuError) -> UInt8 {
        guard let value = Self.unsigned(field, radix: 16, limit: 0xff) else { throw failure("'\(text(field))' is not a hexadecimal byte") }
        return UInt8(value)
    }

    private func decimal(_ field: ArraySlice<UInt8>?, _ what: String, _ usage: String) throws(EvemuError) -> Int32 {
        guard let field else { throw failure(usage) }
        var digits = field
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard let magnitude = Self.unsigned(digits, radix: 10, limit: negative ? 1 << 31 : UInt64(Int32.max)) else {
            throw failure("\(what) '\(text(field))' is not a 32-bit decimal number")
        }
        return negative ? Int32(truncatingIfNeeded: 0 &- magnitude) : Int32(magnitude)
    }

    /// `SECONDS.MICROS` to microseconds; up to six fraction digits.
    private func timestamp(_ field: ArraySlice<UInt8>?, _ usage: String) throws(EvemuError) -> Int64 {
        guard let field else { throw failure(usage) }
        guard let dot = field.firstIndex(of: UInt8(ascii: ".")),
            let seconds = Self.unsigned(field[..<dot], radix: 10, limit: UInt64(Int64.max / 1_000_000 - 1)),
            (1...6).contains(field.count - (dot - field.startIndex) - 1),
            var micros = Self.unsigned(field[(dot + 1)...], radix: 10, limit: 999_999)
        else {
            throw failure("time '\(text(field))' is not SECONDS.MICROS")
        }
        for _ in (field.endIndex - dot - 1)..<6 { micros *= 10 }
        return Int64(seconds) * 1_000_000 + Int64(micros)
    }

    /// Digits in `radix` (10 or 16) up to `limit`; nil when empty, not digits, or too large.
    private static func unsigned(_ digits: ArraySlice<UInt8>, radix: UInt64, limit: UInt64) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + digit
            guard value <= limit else { return nil }
        }
        return value
    }

    private func failure(_ problem: String) -> EvemuError {
        EvemuError(path: path, line: lineNumber, problem: problem, text: String(decoding: line, as: UTF8.self))
    }
}
