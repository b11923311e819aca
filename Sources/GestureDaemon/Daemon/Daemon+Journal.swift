import ActionDispatch
import GestureCore

extension Daemon {
    /// A panel in use as journal entries name it: the metrics' `device` and `id_path`, and
    /// its node now.
    func journalPanel(of id: DeviceID) -> JournalPanel? {
        guard let device = pipeline.devices.first(where: { $0.id == id }) else { return nil }
        return JournalPanel(name: device.info.name, path: input.path(of: id) ?? device.info.devnode ?? "?", properties: device.properties)
    }
}
