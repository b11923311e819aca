import Glibc
import LinuxSystem
import TouchInput

/// The names in a directory (tests only).
func directoryEntries(_ path: String) throws -> [String] {
    guard let dir = opendir(path) else { throw SystemError("opendir", path: path, code: errno) }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
