import CLinuxShims
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct StartupMemoryTests {
    /// What the daemon does once started: the relocation tables ld.so read before main
    /// leave the resident set (no page of them is mapped: /proc/self/pagemap's present bit),
    /// and the process goes on (this test process included).
    @Test func relocationTablesLeaveTheResidentSet() throws {
        var start: UInt = 0
        var length: UInt = 0
        let released = cls_release_relocation_tables(&start, &length)
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        #expect(released > 0 && UInt(released) % page == 0 && length > 0 && UInt(released) >= length, "released \(released) bytes")
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        try #require(pagemap >= 0, "/proc/self/pagemap: \(String(cString: strerror(errno)))")
        defer { close(pagemap) }
        var present = 0
        for address in stride(from: start, to: start + length, by: Int(page)) {
            var entry: UInt64 = 0
            try #require(pread(pagemap, &entry, 8, off_t(address / page * 8)) == 8)
            if entry >> 63 == 1 { present += 1 }
        }
        #expect(present == 0, "\(present) of \(length / page) released pages are still mapped")
    }
}
