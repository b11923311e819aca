#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file as UTF-8 text with plain POSIX calls (no Foundation).
enum FileText {
    /// Config files are small; anything this big is a mistake (a device node, a log).
    static let maximumSize = 4 << 20

    /// With `enforcingSafety`, applies `ConfigFileSafety` to the opened file itself, so the
    /// file checked is the file read (no window to swap it between a check and the read).
    static func read(path: String, enforcingSafety: Bool = false) throws(ConfigError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: errnoText()) }
        defer { close(fd) }
        if enforcingSafety {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: errnoText()) }
            if let reason = ConfigFileSafety.problem(owner: info.st_uid, mode: info.st_mode, path: path) {
                throw .unsafe(path: path, reason: reason)
            }
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: errnoText())
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maximumSize else {
                throw .unreadable(path: path, reason: "larger than \(maximumSize >> 20) MiB, not a config file")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let (position, byte) = SourcePosition.firstInvalidUTF8(in: bytes) ?? (SourcePosition(line: 1, column: 1), 0)
            throw .syntax(Diagnostic(file: path, position: position, keyPath: ConfigKeyPath(),
                                     message: "byte 0x\(String(byte, radix: 16, uppercase: true)) is not UTF-8 (TOML files are UTF-8)"))
        }
        return text
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
