#if canImport(Glibc)
import Glibc
#endif

/// A real file under `$TMPDIR` (or /tmp), removed in `deinit`.
final class TemporaryFile {
    let path: String

    convenience init(contents: String, mode: mode_t = 0o644) {
        self.init(bytes: Array(contents.utf8), mode: mode)
    }

    init(bytes: [UInt8], mode: mode_t = 0o644) {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/gestured-config-XXXXXX.toml".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        precondition(fd >= 0, "mkstemps: \(String(cString: strerror(errno)))")
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "write: \(String(cString: strerror(errno)))")
        fchmod(fd, mode)
        close(fd)
    }

    deinit { unlink(path) }
}
