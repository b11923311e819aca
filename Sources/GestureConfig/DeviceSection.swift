import GestureCore

extension ConfigBuilder {
    /// `[[device]]`: each rule's match keys and its mapping onto the screen.
    func readDevices(_ value: TOMLValue?, screen: Rect) -> [DeviceRule] {
        guard let value else { return [] }
        let path = ConfigKeyPath(keys: "device")
        guard let array = value.array else {
            sink.report(path, "wrong type", expected: "an array of tables: [[device]]", found: TableReader.render(value))
            return []
        }
        var rules: [DeviceRule] = []
        for (index, element) in array.enumerated() {
            guard let table = element.table else {
                sink.report(
                    path.appending(index: index), "wrong type", expected: "a table",
                    found: TableReader.render(element))
                continue
            }
            let reader = TableReader(table: table, path: path.appending(index: index), sink: sink)
            guard let rule = readDevice(reader, screen: screen) else { continue }
            if let earlier = rules.firstIndex(where: { $0.match == rule.match }) {
                sink.report(
                    reader.path, "duplicate device rule: device[\(earlier)] has the same match keys",
                    expected: "one rule per touchscreen")
            }
            rules.append(rule)
        }
        return rules
    }

    private func readDevice(_ reader: TableReader, screen: Rect) -> DeviceRule? {
        var match = DeviceMatch()
        match.name = reader.string("name")
        match.vendor = readUSBID(reader, "vendor")
        match.product = readUSBID(reader, "product")
        match.path = reader.string("path")
        if let property = reader.table("property") {
            if let name = property.string("name"), let value = property.string("value") {
                match.property = EnvironmentEntry(name: name, value: value)
            } else {
                for key in ["name", "value"] where !property.contains(key) {
                    sink.report(
                        property.path.appending(key), "missing",
                        expected: "property = { name = \"ID_MODEL\", value = \"...\" }")
                }
            }
            property.finish()
        }
        var mapping = DeviceMapping()
        var setsCalibration = false
        if let rotation = reader.read(
            "rotation", expected: "0, 90, 180 or 270",
            { value throws(TableReader.Problem) -> Int? in
                guard let degrees = value.int else { return nil }
                guard [0, 90, 180, 270].contains(degrees) else {
                    throw TableReader.Problem(message: "not a quarter turn")
                }
                return degrees
            })
        {
            mapping.rotation = rotation
        }
        mapping.flipX = reader.bool("flip_x") ?? false
        mapping.flipY = reader.bool("flip_y") ?? false
        if let matrix = readNumbers(
            reader, "calibration", count: 6,
            expected: "6 numbers [a, b, c, d, e, f] as libinput's LIBINPUT_CALIBRATION_MATRIX")
        {
            mapping.calibration = matrix
            setsCalibration = true
        }
        if let output = reader.table("output") {
            mapping.output = readRect(output, in: screen, parentName: "the screen")
        }
        if let size = readNumbers(reader, "size_mm", count: 2, expected: "[width, height] in mm, both more than 0") {
            if size.allSatisfy({ $0 > 0 }) {
                mapping.sizeMM = (size[0], size[1])
            } else {
                sink.report(
                    reader.path.appending("size_mm"), "must be more than 0",
                    expected: "[width, height] in mm, both more than 0")
            }
        }
        let passthrough = reader.bool("passthrough") ?? false
        var cancel = CancelMode.release
        let cancelNames = CancelMode.allCases.map(\.rawValue)
        if let name = reader.string("cancel") {
            if let mode = CancelMode(rawValue: name) {
                cancel = mode
            } else {
                sink.report(
                    reader.path.appending("cancel"), "unknown cancel mode '\(name)'",
                    expected: cancelNames.joined(separator: ", "),
                    didYouMean: DidYouMean.suggestion(for: name, among: cancelNames))
            }
        }
        let ignore = reader.bool("ignore") ?? false
        let health = readHealth(reader.table("health"), screen: screen)
        let healthActions = reader.table("on").map(readHealthActions) ?? HealthActions()
        reader.finish()
        return DeviceRule(
            match: match, mapping: mapping, setsCalibration: setsCalibration, ignore: ignore,
            passthrough: passthrough, cancel: cancel, health: health, healthActions: healthActions)
    }

    /// A USB vendor or product id: TOML's `0x222a`, or the string `"222a"` as lsusb prints it.
    private func readUSBID(_ reader: TableReader, _ key: String) -> UInt16? {
        reader.read(key, expected: "a 16-bit id such as 0x222a or \"222a\"") { value throws(TableReader.Problem) in
            let id: Int?
            if let int = value.int {
                id = int
            } else if let text = value.string {
                id = Int(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text, radix: 16)
            } else {
                return nil
            }
            guard let id, let id16 = UInt16(exactly: id) else { throw TableReader.Problem(message: "not a 16-bit id") }
            return id16
        }
    }

    /// An array of exactly `count` numbers (integers or floats).
    func readNumbers(_ reader: TableReader, _ key: String, count: Int, expected: String) -> [Double]? {
        reader.read(key, expected: expected) { value throws(TableReader.Problem) in
            guard let array = value.array else { return nil }
            let numbers = array.compactMap(TableReader.number)
            guard numbers.count == array.count, numbers.count == count else {
                throw TableReader.Problem(message: "needs exactly \(count) numbers")
            }
            return numbers
        }
    }
}
