#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and writes through Glibc (no Foundation), with `SystemError`s that name
/// the path. The one way gestured reads a file whole (configs, evemu recordings).
public enum WholeFile {
    /// Opens `path` for reading without blocking (a FIFO with no writer would otherwise hang
    /// the open, then the read) and refuses anything but a regular file, saying what it is.
    /// Returns the descriptor and its `fstat`, so what is checked is what is read.
    public static func open(_ path: String) throws(SystemError) -> (FileDescriptor, stat) {
        let fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0 else { throw SystemError.current("fstat", path: path) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (fd, info)
        case S_IFDIR: throw SystemError("read", path: path, code: EISDIR)
        case let kind: throw SystemError("read", path: path, code: EINVAL, detail: "\(describe(kind)), not a regular file")
        }
    }

    /// The contents of the regular file `fd` (from `open`), refused when larger than
    /// `maximumSize` bytes (EFBIG).
    public static func read(_ fd: FileDescriptor, path: String, maximumSize: Int) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            // A regular file never blocks, so nil (EAGAIN) does not happen; it would end the read.
            let count =
                try chunk.withUnsafeMutableBytes { buffer in
                    Result { () throws(SystemError) in try fd.read(into: buffer, subject: path) }
                }.get() ?? 0
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            // Checked as it is read: /proc and sysfs files have no size in `fstat`, and a file
            // may grow after it.
            guard bytes.count <= maximumSize else {
                throw SystemError("read", path: path, code: EFBIG, detail: "larger than \(sizeText(maximumSize))")
            }
        }
    }

    /// `open` then `read`: the bytes of the regular file at `path`.
    public static func read(_ path: String, maximumSize: Int) throws(SystemError) -> [UInt8] {
        let (fd, _) = try open(path)
        return try read(fd, path: path, maximumSize: maximumSize)
    }

    /// Replaces (or creates, mode 0644) the file at `path` with `text`.
    public static func write(_ text: String, to path: String) throws(SystemError) {
        try write(bytes: Array(text.utf8), to: path)
    }

    /// The same, of bytes.
    public static func write(bytes utf8: [UInt8], to path: String) throws(SystemError) {
        let fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        try utf8.withUnsafeBytes { bytes in
            Result { () throws(SystemError) in try fd.write(all: bytes, subject: path) }
        }.get()
    }

    /// "is a FIFO", "is a socket", ... for a file type from `st_mode`.
    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "is a FIFO (named pipe)"
        case S_IFSOCK: "is a socket"
        case S_IFCHR: "is a character device"
        case S_IFBLK: "is a block device"
        default: "has file type 0o\(String(kind, radix: 8))"
        }
    }

    /// 4194304 -> "4 MiB"; sizes that are not whole MiB in bytes.
    static func sizeText(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
