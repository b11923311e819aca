import LinuxSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one whole-file reader: regular files only, said plainly otherwise, with a size cap;
/// and the one EINTR retry.
@Suite struct WholeFileTests {
    private let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"

    private func temporaryPath(_ name: String) -> String { "\(directory)/linuxsystem-\(getpid())-\(name)" }

    @Test func writesAndReadsBackAndCapsTheSize() throws {
        let path = temporaryPath("text")
        defer { unlink(path) }
        try WholeFile.write("twenty bytes of text", to: path)
        #expect(try WholeFile.read(path, maximumSize: 20) == Array("twenty bytes of text".utf8))
        #expect(throws: SystemError("read", path: path, code: EFBIG, detail: "larger than 19 bytes")) {
            try WholeFile.read(path, maximumSize: 19)
        }
    }

    /// /proc files report size 0 in fstat: the reader reads to the end, not to st_size.
    @Test func readsProcFilesWhole() throws {
        let status = String(decoding: try WholeFile.read("/proc/self/status", maximumSize: 1 << 20), as: UTF8.self)
        #expect(status.contains("VmRSS:"))
    }

    /// A FIFO with no writer would block open(2) and read(2); it is refused at once.
    @Test func refusesWhatIsNotARegularFileSayingWhatItIs() throws {
        let fifo = temporaryPath("fifo")
        defer { unlink(fifo) }
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SystemError("read", path: fifo, code: EINVAL, detail: "is a FIFO (named pipe), not a regular file")) {
            try WholeFile.read(fifo, maximumSize: 1 << 20)
        }
        #expect(throws: SystemError("read", path: "/dev/null", code: EINVAL, detail: "is a character device, not a regular file")) {
            try WholeFile.read("/dev/null", maximumSize: 1 << 20)
        }
        do {
            _ = try WholeFile.read(directory, maximumSize: 1 << 20)
            Issue.record("a directory was read")
        } catch {
            #expect(error.code == EISDIR && error.description == "\(directory): read failed: Is a directory")
        }
        #expect(throws: SystemError("open", path: "/nonexistent/x", code: ENOENT)) {
            try WholeFile.read("/nonexistent/x", maximumSize: 1)
        }
    }

    @Test func retriesInterruptedCallsOnly() {
        var calls = 0
        let result = retryingInterrupted { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        calls = 0
        let failed = retryingInterrupted { () -> Int in
            calls += 1
            errno = EBADF
            return -1
        }
        #expect(failed == -1 && calls == 1)
    }
}
