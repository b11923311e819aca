import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under $TMPDIR (or /tmp), removed by `remove()`.
public struct TemporaryDirectory {
    public let path: String

    public init() throws {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/gestured-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", base) }
        path = String(cString: made)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func remove() {
        // Test files only: a shell rm keeps this short.
        _ = system("rm -rf '\(path)'")
    }
}

/// A whole small file, nil when it cannot be read.
public func readText(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
