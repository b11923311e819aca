import GestureCore

extension DeviceMatch {
    /// True when every key that is set matches the device (a match with no keys matches all).
    /// `path` compares with udev's `ID_PATH` or the devnode.
    public func matches(name deviceName: String, vendor deviceVendor: UInt16, product deviceProduct: UInt16,
                        devnode: String?, properties: [String: String]) -> Bool {
        if let name, !globMatches(name, deviceName) { return false }
        if let vendor, vendor != deviceVendor { return false }
        if let product, product != deviceProduct { return false }
        if let path, path != properties["ID_PATH"], path != devnode { return false }
        if let property, properties[property.name] != property.value { return false }
        return true
    }
}

extension Configuration {
    /// The index of the first `[[device]]` rule that matches, if any: that one rule decides.
    public func rule(name: String, vendor: UInt16, product: UInt16,
                     devnode: String?, properties: [String: String]) -> Int? {
        devices.firstIndex {
            $0.match.matches(name: name, vendor: vendor, product: product, devnode: devnode, properties: properties)
        }
    }

    /// The mapping of the first `[[device]]` rule that matches, else the identity.
    public func mapping(name: String, vendor: UInt16, product: UInt16,
                        devnode: String?, properties: [String: String]) -> DeviceMapping {
        rule(name: name, vendor: vendor, product: product, devnode: devnode, properties: properties)
            .map { devices[$0].mapping } ?? .identity
    }
}
