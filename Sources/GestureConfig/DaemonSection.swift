import GestureCore
import LinuxSystem

extension ConfigBuilder {
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// `[daemon]`; absent keys keep `DaemonSettings`' documented defaults.
    func readDaemon(_ reader: TableReader?) -> DaemonSettings {
        var settings = DaemonSettings()
        guard let reader else { return settings }
        if let socket = absolutePath(reader, "socket") { settings.socketPath = socket }
        if let mode = readSocketMode(reader) { settings.socketMode = mode }
        if let group = readGroup(reader, "socket_group") { settings.socketGroup = group }
        if let group = readGroup(reader, "control_group") { settings.controlGroup = group }
        if let level = reader.string("log_level") {
            if Self.logLevels.contains(level) {
                settings.logLevel = level
            } else {
                sink.report(
                    reader.path.appending("log_level"), "unknown log level",
                    expected: Self.logLevels.joined(separator: ", "), found: "\"\(Diagnostic.shown(level))\"",
                    didYouMean: DidYouMean.suggestion(for: level, among: Self.logLevels))
            }
        }
        if let shell = absolutePath(reader, "shell") { settings.shell = shell }
        if let environment = reader.table("environment") {
            settings.environment = readEnvironment(environment)
        }
        if let timeout = reader.duration("command_timeout") {
            if timeout > 0 {
                settings.commandTimeout = timeout
            } else {
                sink.report(
                    reader.path.appending("command_timeout"), "must be more than 0",
                    expected: Units.durationExpected, found: "\"\(Units.format(duration: timeout))\"")
            }
        }
        if let grace = reader.duration("kill_grace") { settings.killGrace = grace }
        if let count = reader.int("max_children", in: 1...1_024, expected: "an integer from 1 to 1024") {
            settings.maxChildren = count
        }
        if let bytes = reader.int(
            "subscriber_buffer", in: 4_096...(64 << 20),
            expected: "a number of bytes from 4096 to 67108864")
        {
            settings.subscriberBuffer = bytes
        }
        if let count = reader.int("socket_queue", in: 1...65_536, expected: "an integer from 1 to 65536") {
            settings.socketQueue = count
        }
        if let file = absolutePath(reader, "metrics_file") { settings.metricsFile = file }
        if let interval = reader.duration("metrics_interval") {
            if (1_000_000...3_600_000_000).contains(interval) {
                settings.metricsInterval = interval
            } else {
                sink.report(
                    reader.path.appending("metrics_interval"), "must be from 1s to 1h",
                    expected: Units.durationExpected, found: "\"\(Units.format(duration: interval))\"")
            }
        }
        if let log = reader.bool("log_recognitions") { settings.logRecognitions = log }
        if let rate = readFrameRate(reader) { settings.frameRate = rate }
        reader.finish()
        return settings
    }

    /// `frame_rate`: a rate in Hz (1 to 1000) or `"every-frame"`.
    func readFrameRate(_ reader: TableReader) -> FrameRate? {
        reader.read("frame_rate", expected: "a rate in Hz from 1 to 1000, or \"every-frame\"") { value throws(TableReader.Problem) in
            if value.string == "every-frame" { return .everyFrame }
            guard let rate = value.int else { return nil }
            guard (1...1_000).contains(rate) else { throw TableReader.Problem(message: "out of range") }
            return .hertz(rate)
        }
    }

    /// An absolute path string.
    func absolutePath(_ reader: TableReader, _ key: String) -> String? {
        reader.read(key, expected: "an absolute path") { value throws(TableReader.Problem) in
            guard let path = value.string else { return nil }
            guard path.hasPrefix("/") else { throw TableReader.Problem(message: "not an absolute path") }
            return path
        }
    }

    /// A permission mode: TOML's `0o660`, or the string `"0660"` (octal, as chmod takes it).
    /// Shown in octal in messages (TOML hands over 0o4777 as 2559).
    func readMode(_ reader: TableReader, _ key: String) -> UInt32? {
        reader.read(key, expected: "a mode such as 0o660 or \"0660\"") { value throws(TableReader.Problem) in
            let mode: UInt32?
            var found: String?
            if let int = value.int {
                mode = UInt32(exactly: int)
                if int >= 0 { found = Self.octal(int) }
            } else if let text = value.string {
                mode = UInt32(text, radix: 8)
            } else {
                return nil
            }
            guard let mode, mode <= 0o777 else { throw TableReader.Problem(message: "not a permission mode", found: found) }
            return mode
        }
    }

    /// `0o660`, `0o000`, `0o4777`.
    static func octal(_ mode: Int) -> String {
        let digits = String(mode, radix: 8)
        return "0o" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// `socket_mode`, refused as the daemon would find it unusable (the owner, gestured,
    /// must read and write its socket) and warned about when anyone may connect.
    private func readSocketMode(_ reader: TableReader) -> UInt32? {
        guard let mode = readMode(reader, "socket_mode") else { return nil }
        let path = reader.path.appending("socket_mode")
        let found = Self.octal(Int(mode))
        if mode & 0o600 != 0o600 {
            sink.report(
                path, "the daemon could not read and write its own socket",
                expected: "a mode with owner read and write, such as 0o660", found: found)
            return nil
        }
        if mode & 0o006 != 0 {
            sink.warn(
                path, "anyone on this machine may connect: reload the config, replay, subscribe to every event",
                expected: "0o660, with socket_group for the users that need the socket", found: found)
        }
        return mode
    }

    /// `socket_group` or `control_group`, resolved now as the daemon resolves it when it
    /// makes the socket (a group that does not exist stopped the start of a config that
    /// passed check).
    private func readGroup(_ reader: TableReader, _ key: String) -> String? {
        guard let group = reader.string(key) else { return nil }
        // A failed lookup (an unreachable directory service) counts as missing: the
        // daemon's start would fail the same way.
        if (try? GroupDatabase.id(of: group)) == nil {
            sink.report(
                reader.path.appending(key), "no such group on this machine",
                expected: "an existing group (getent group lists them)", found: "\"\(Diagnostic.shown(group))\"")
            return nil
        }
        return group
    }

    /// `environment = { NAME = "value" }`: names as the shell takes them; `GESTURE_*` is the
    /// daemon's own (the event's values).
    func readEnvironment(_ reader: TableReader) -> [EnvironmentEntry] {
        var entries: [EnvironmentEntry] = []
        for name in reader.table.keys {
            guard let value = reader.string(name) else { continue }
            let path = reader.path.appending(name)
            if !Self.isEnvironmentName(name) {
                sink.report(
                    path, "not a valid environment variable name",
                    expected: "letters, digits and '_', not starting with a digit", found: "\"\(Diagnostic.shown(name))\"")
            } else if name.hasPrefix("GESTURE_") {
                sink.report(path, "names starting with GESTURE_ are reserved for the event's values")
            } else {
                entries.append(EnvironmentEntry(name: name, value: value))
            }
        }
        return entries
    }

    static func isEnvironmentName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    /// `[screen]`: the logical screen in px, which views and outputs are laid out on.
    func readScreen(_ reader: TableReader?) -> ScreenSize? {
        guard let reader else {
            sink.report(
                ConfigKeyPath(keys: "screen"), "missing [screen] table",
                expected: "the logical screen size in px, e.g. [screen] width = 1920, height = 1080")
            return nil
        }
        var sizes: [Double] = []
        for key in ["width", "height"] {
            if !reader.contains(key) {
                sink.report(reader.path.appending(key), "missing", expected: "the screen's \(key) in px")
                _ = reader.value(key)
            } else if let size = reader.pixels(key) {
                if size > 0 {
                    sizes.append(size)
                } else {
                    sink.report(
                        reader.path.appending(key), "must be more than 0", expected: "px (a number or \"40px\")",
                        found: Units.format(size))
                }
            }
        }
        reader.finish()
        return sizes.count == 2 ? ScreenSize(width: sizes[0], height: sizes[1]) : nil
    }
}
