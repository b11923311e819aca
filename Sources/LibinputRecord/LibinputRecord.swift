import TouchInput

/// `libinput record` files (YAML, format version 1): the device description under
/// `devices[].evdev` (name, id, codes, absinfo, properties) and its events as `- evdev:`
/// frames of `[sec, usec, type, code, value]`, read into the same `EvemuRecording` that
/// evemu files give, so `touches`, `replay` and `render` take either.
///
/// A recording of several devices gives its first touchscreen (the first with
/// ABS_MT_POSITION_X, or ABS_X). Problems are `EvemuError`s with the file's line, as for
/// evemu files.
public enum LibinputRecord {
    /// Parses libinput record text; `path` only names it in errors.
    public static func parse(_ text: String, path: String) throws(EvemuError) -> EvemuRecording {
        let document = Document(path: path, text: text)
        let yaml = try YAMLDocument(text, path: path, lines: document.lines)
        guard let root = yaml.root else { throw document.error(nil, "empty file: not a libinput record") }
        return try document.recording(root)
    }

    /// True when `bytes` start like a libinput record (`version:` as the first key, after
    /// comments and a `---`), for files whose name does not say.
    public static func looksLike(_ bytes: [UInt8]) -> Bool {
        for line in bytes.prefix(4096).split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line, as: UTF8.self).trimmingSpaces
            if text.isEmpty || text.hasPrefix("#") || text == "---" { continue }
            return text.hasPrefix("version:")
        }
        return false
    }
}

/// One file being read: its lines for error messages, and the walk over its nodes.
private struct Document {
    let path: String
    let lines: [Substring]

    init(path: String, text: String) {
        self.path = path
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    func error(_ node: YAMLNode?, _ problem: String) -> EvemuError {
        error(line: node?.line ?? 0, problem)
    }

    func error(line: Int, _ problem: String) -> EvemuError {
        let text = line > 0 && line <= lines.count ? String(lines[line - 1]).trimmingSpaces : ""
        return EvemuError(path: path, line: line, problem: problem, text: text)
    }

    // MARK: structure

    func recording(_ root: YAMLNode) throws(EvemuError) -> EvemuRecording {
        guard root.mapping != nil else { throw error(root, "not a libinput record: the file is not a YAML mapping") }
        guard let version = root["version"] else { throw error(root, "not a libinput record: no 'version' key") }
        guard version.int == 1 else {
            throw error(version, "libinput record format version \(version.string ?? "?") is not supported (only 1)")
        }
        guard let devices = root["devices"] else { throw error(root, "no 'devices' list") }
        guard let list = devices.sequence, !list.isEmpty else { throw error(devices, "'devices' must be a non-empty list") }
        var parsed: [(info: TouchDeviceInfo, node: YAMLNode)] = []
        for node in list { parsed.append((try device(node), node)) }
        let touch =
            parsed.first { $0.info.capabilities.hasAbs(InputCodes.absMTPositionX) }
            ?? parsed.first { $0.info.capabilities.hasAbs(InputCodes.absX) }
        guard let (info, node) = touch else {
            let key = root.mapping?.first { $0.key.string == "devices" }?.key
            throw error(
                key, "none of the \(list.count) recorded devices has absolute positions (ABS_MT_POSITION_X or ABS_X): not a touchscreen")
        }
        var events = try self.events(node)
        if let start = events.first?.time {
            for index in events.indices { events[index].time -= start }
        }
        return EvemuRecording(info: info, events: events)
    }

    private func device(_ node: YAMLNode) throws(EvemuError) -> TouchDeviceInfo {
        guard let evdev = node["evdev"], evdev.mapping != nil else { throw error(node, "a device without an 'evdev' description") }
        guard let name = evdev["name"]?.string else { throw error(evdev, "the device's evdev description has no 'name'") }
        let idNode = try required(evdev, "id")
        let id = try integers(idNode, count: 4, what: "'id' [bus, vendor, product, version]")
        for value in id where !(0...0xffff).contains(value) {
            throw error(idNode, "'id' values are 16-bit (0 to 65535): \(value)")
        }
        var capabilities = DeviceCapabilities()
        let codesNode = try required(evdev, "codes")
        guard let codes = codesNode.mapping else { throw error(codesNode, "'codes' must map event types to lists of codes") }
        let absinfo = evdev["absinfo"]?.mapping
        for (typeNode, list) in codes {
            let type = try code(typeNode, "an event type")
            guard let entries = list.sequence else { throw error(list, "the codes of type \(type) must be a list") }
            for entry in entries {
                let code = try self.code(entry, "an event code")
                var info: AbsInfo?
                if type == InputCodes.evAbs {
                    guard let axis = absinfo?.first(where: { $0.key.int == Int(code) })?.value else {
                        throw error(
                            entry, "\(InputCodes.codeName(type: type, code: code)) is listed under 'codes' but has no 'absinfo' entry")
                    }
                    let values = try integers(axis, count: 5, what: "'absinfo' [min, max, fuzz, flat, resolution]")
                    info = AbsInfo(
                        minimum: Int32(clamping: values[0]), maximum: Int32(clamping: values[1]), fuzz: Int32(clamping: values[2]),
                        flat: Int32(clamping: values[3]), resolution: Int32(clamping: values[4]))
                }
                // EV_SYN's codes are implied, as in evemu's description.
                if type == InputCodes.evSyn {
                    capabilities.types.insert(type)
                } else {
                    capabilities.enable(type: type, code: code, info: info)
                }
            }
        }
        if let properties = evdev["properties"] {
            guard let entries = properties.sequence else { throw error(properties, "'properties' must be a list") }
            for entry in entries { capabilities.properties.insert(try code(entry, "an input property")) }
        }
        return TouchDeviceInfo(
            name: name, bus: UInt16(id[0]), vendor: UInt16(id[1]), product: UInt16(id[2]),
            version: UInt16(id[3]), capabilities: capabilities)
    }

    /// `events:` of one device: `- evdev: [[sec, usec, type, code, value], ...]` frames
    /// (libinput's own `- libinput:` lines are its interpretation, not input, and skipped).
    private func events(_ device: YAMLNode) throws(EvemuError) -> [RawInputEvent] {
        guard let list = device["events"] else { return [] }
        guard let frames = list.sequence else { throw error(list, "'events' must be a list") }
        var events: [RawInputEvent] = []
        for frame in frames {
            guard frame.mapping != nil else { throw error(frame, "an event entry must be '- evdev: [...]'") }
            guard let evdev = frame["evdev"] else { continue }
            guard let entries = evdev.sequence else {
                throw error(evdev, "'evdev' must be a list of [sec, usec, type, code, value]")
            }
            for entry in entries {
                let v = try integers(entry, count: 5, what: "an event [sec, usec, type, code, value]")
                guard v[0] >= 0, (0..<1_000_000).contains(v[1]) else {
                    throw error(entry, "the time must be seconds >= 0 and microseconds 0 to 999999")
                }
                guard (0...0xffff).contains(v[2]), (0...0xffff).contains(v[3]), let value = Int32(exactly: v[4]) else {
                    throw error(entry, "type and code are 16-bit and the value 32-bit")
                }
                let time = Int64(v[0]) * 1_000_000 + Int64(v[1])
                if let last = events.last, time < last.time {
                    throw error(entry, "time goes backwards (\(time) µs after \(last.time) µs)")
                }
                events.append(RawInputEvent(type: UInt16(v[2]), code: UInt16(v[3]), value: value, time: time))
            }
        }
        return events
    }

    // MARK: values

    private func required(_ node: YAMLNode, _ key: String) throws(EvemuError) -> YAMLNode {
        guard let value = node[key] else { throw error(node, "no '\(key)' in the device's evdev description") }
        return value
    }

    private func integers(_ node: YAMLNode, count: Int, what: String) throws(EvemuError) -> [Int] {
        guard let items = node.sequence, items.count == count else { throw error(node, "expected \(what)") }
        var values: [Int] = []
        for item in items {
            guard let value = item.int else { throw error(item, "expected \(what): '\(item.string ?? "?")' is not an integer") }
            values.append(value)
        }
        return values
    }

    private func code(_ node: YAMLNode, _ what: String) throws(EvemuError) -> UInt16 {
        guard let value = node.int, let code = UInt16(exactly: value) else {
            throw error(node, "expected \(what) (0 to 65535), found '\(node.string ?? "?")'")
        }
        return code
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
