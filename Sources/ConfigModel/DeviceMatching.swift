import GestureCore

extension DeviceMatch {
    /// True when every key that is set matches the device (a match with no keys matches all).
    /// `path` compares with udev's `ID_PATH` or the devnode.
    public func matches(
        name deviceName: String, vendor deviceVendor: UInt16, product deviceProduct: UInt16,
        devnode: String?, properties: [String: String]
    ) -> Bool {
        if let name, !globMatches(name, deviceName) { return false }
        if let vendor, vendor != deviceVendor { return false }
        if let product, product != deviceProduct { return false }
        if let path, path != properties["ID_PATH"], path != devnode { return false }
        if let property, properties[property.name] != property.value { return false }
        return true
    }
}

/// Where a device's calibration matrix comes from.
public enum CalibrationSource: Equatable, Sendable, CustomStringConvertible {
    /// No matrix: the identity.
    case none
    /// The `calibration` key of `device[rule]`.
    case rule(Int)
    /// udev's `LIBINPUT_CALIBRATION_MATRIX`, as libinput applies it for the compositor.
    case udev
    /// udev's property is set but is not six numbers: ignored, as libinput ignores it.
    case udevInvalid(String)

    public var description: String {
        switch self {
        case .none: "none"
        case .rule(let index): "device[\(index)] calibration"
        case .udev: "udev LIBINPUT_CALIBRATION_MATRIX"
        case .udevInvalid(let text): "none (udev LIBINPUT_CALIBRATION_MATRIX \"\(text)\" is not 6 numbers: ignored)"
        }
    }
}

/// A device's mapping and where its parts come from.
public struct ResolvedMapping: Equatable, Sendable {
    public var mapping: DeviceMapping
    /// The index of the `[[device]]` rule that matched, if any.
    public var rule: Int?
    public var calibrationSource: CalibrationSource
}

extension Configuration {
    /// The index of the first `[[device]]` rule that matches, if any: that one rule decides.
    public func rule(
        name: String, vendor: UInt16, product: UInt16,
        devnode: String?, properties: [String: String]
    ) -> Int? {
        devices.firstIndex {
            $0.match.matches(name: name, vendor: vendor, product: product, devnode: devnode, properties: properties)
        }
    }

    /// The mapping of the first `[[device]]` rule that matches, else the identity. When the
    /// rule sets no `calibration`, udev's `LIBINPUT_CALIBRATION_MATRIX` is the matrix (applied
    /// first, then the rule's rotation and flips, in normalized space as libinput does), so
    /// that gestures see the screen the application sees.
    public func mapping(
        name: String, vendor: UInt16, product: UInt16,
        devnode: String?, properties: [String: String]
    ) -> ResolvedMapping {
        let rule = self.rule(name: name, vendor: vendor, product: product, devnode: devnode, properties: properties)
        var resolved = ResolvedMapping(
            mapping: rule.map { devices[$0].mapping } ?? .identity, rule: rule,
            calibrationSource: .none)
        if let rule, devices[rule].setsCalibration {
            resolved.calibrationSource = .rule(rule)
        } else if let text = properties["LIBINPUT_CALIBRATION_MATRIX"] {
            if let matrix = DeviceMapping.calibration(udevProperty: text) {
                resolved.mapping.calibration = matrix
                resolved.calibrationSource = .udev
            } else {
                resolved.calibrationSource = .udevInvalid(text)
            }
        }
        return resolved
    }
}

extension Configuration {
    /// The health settings of the rule a device matched (the defaults when none did).
    public func health(of resolved: ResolvedMapping) -> TouchHealthSettings {
        resolved.rule.map { devices[$0].health } ?? TouchHealthSettings()
    }
}
