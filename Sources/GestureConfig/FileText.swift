import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// Reads a config file as UTF-8 text through `WholeFile`, with `ConfigError`s.
enum FileText {
    /// Config files are small; anything this big is a mistake (a log, a recording).
    static let maximumSize = 4 << 20

    /// With `enforcingSafety`, applies `ConfigFileSafety` to the opened file itself, so the
    /// file checked is the file read (no window to swap it between a check and the read).
    static func read(path: String, enforcingSafety: Bool = false) throws(ConfigError) -> String {
        let opened: (FileDescriptor, stat)
        do { opened = try WholeFile.open(path) } catch { throw unreadable(error) }
        if enforcingSafety, let reason = ConfigFileSafety.problem(owner: opened.1.st_uid, mode: opened.1.st_mode, path: path) {
            throw .unsafe(path: path, reason: reason)
        }
        let bytes: [UInt8]
        do { bytes = try WholeFile.read(opened.0, path: path, maximumSize: maximumSize) } catch { throw unreadable(error) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let (position, byte) = SourcePosition.firstInvalidUTF8(in: bytes) ?? (SourcePosition(line: 1, column: 1), 0)
            throw .syntax(
                Diagnostic(
                    location: ConfigLocation(file: path, position: position), keyPath: ConfigKeyPath(),
                    message: "byte 0x\(String(byte, radix: 16, uppercase: true)) is not UTF-8 (TOML files are UTF-8)"))
        }
        return text
    }

    private static func unreadable(_ error: SystemError) -> ConfigError {
        .unreadable(path: error.path, reason: error.code == EFBIG ? error.reason + ", not a config file" : error.reason)
    }
}
