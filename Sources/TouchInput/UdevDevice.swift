import CUdev

/// Owns one `struct udev_device` reference.
final class UdevDevice {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { udev_device_unref(handle) }

    /// The device as the input layer describes it, or nil when it is not an event node.
    func describe() -> DiscoveredDevice? {
        guard let sysname = udev_device_get_sysname(handle).map(String.init(cString:)), sysname.hasPrefix("event"),
            let devnode = udev_device_get_devnode(handle).map(String.init(cString:))
        else { return nil }
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(handle)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map(String.init(cString:)) ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        // The input device (inputN) above the event node holds the name, ids and capabilities.
        let parent = udev_device_get_parent_with_subsystem_devtype(handle, "input", nil)
        func attribute(_ name: String) -> String? {
            guard let parent, let value = udev_device_get_sysattr_value(parent, name) else { return nil }
            return String(cString: value)
        }
        func id(_ name: String) -> UInt16 {
            attribute("id/" + name).flatMap { UInt16($0.filter { !$0.isWhitespace }, radix: 16) } ?? 0
        }
        var capabilities = DeviceCapabilities()
        capabilities.properties = attribute("properties").flatMap(SysfsBitmask.bits) ?? []
        capabilities.types.formUnion(attribute("capabilities/ev").flatMap(SysfsBitmask.bits) ?? [])
        for (type, file) in [(InputCodes.evKey, "capabilities/key"), (InputCodes.evAbs, "capabilities/abs")] {
            for code in attribute(file).flatMap(SysfsBitmask.bits) ?? [] {
                capabilities.enable(type: type, code: code, info: type == InputCodes.evAbs ? AbsInfo(minimum: 0, maximum: 0) : nil)
            }
        }
        let info = TouchDeviceInfo(
            name: attribute("name")?.trimmingNewline ?? "", bus: id("bustype"), vendor: id("vendor"),
            product: id("product"), version: id("version"), capabilities: capabilities, devnode: devnode)
        return DiscoveredDevice(
            devnode: devnode, syspath: udev_device_get_syspath(handle).map(String.init(cString:)) ?? "",
            info: info, properties: properties)
    }
}

extension String {
    fileprivate var trimmingNewline: String { last == "\n" ? String(dropLast()) : self }
}
