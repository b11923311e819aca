import LinuxSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one group lookup, used by `check` (does socket_group exist?) and by the daemon
/// (which gid gets the socket).
@Suite struct GroupDatabaseTests {
    @Test func findsTheGroupsThisProcessIsIn() throws {
        #expect(try GroupDatabase.id(of: "root") == 0)
        let gid = getegid()
        if let entry = getgrgid(gid) {
            #expect(try GroupDatabase.id(of: String(cString: entry.pointee.gr_name)) == gid)
        }
    }

    @Test func aMissingGroupIsNilNotAnError() throws {
        #expect(try GroupDatabase.id(of: "gestured-no-such-group-\(getpid())") == nil)
    }
}
