#if canImport(Glibc)
import Glibc
#endif

/// The system's group database, as getgrnam_r(3) sees it (files, LDAP, ...).
public enum GroupDatabase {
    /// The id of the group called `name`, nil when there is none. A lookup that fails
    /// (an unreachable directory service) throws with its errno.
    public static func id(of name: String) throws(SystemError) -> gid_t? {
        try lookup("getgrnam_r", "group \(name)", { getgrnam_r(name, $0, $1, $2, $3) }, read: { $0.gr_gid })
    }

    /// The name of group `id`, nil when there is none or the lookup fails (for messages).
    public static func name(of id: gid_t) -> String? {
        try? lookup("getgrgid_r", "group \(id)", { getgrgid_r(id, $0, $1, $2, $3) }, read: { String(cString: $0.gr_name) })
    }

    /// Runs a reentrant lookup with a buffer grown until the entry fits, and reads from the
    /// entry (whose strings point into the buffer) while the buffer lives.
    private static func lookup<T>(
        _ call: String, _ subject: String,
        _ body: (
            UnsafeMutablePointer<Glibc.group>, UnsafeMutablePointer<CChar>, Int, UnsafeMutablePointer<UnsafeMutablePointer<Glibc.group>?>
        ) -> Int32,
        read: (Glibc.group) -> T
    ) throws(SystemError) -> T? {
        var group = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var size = 4_096
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let rc = buffer.withUnsafeMutableBufferPointer { body(&group, $0.baseAddress!, $0.count, &result) }
            // A group with many members needs a larger buffer.
            if rc == ERANGE, size < 1 << 20 {
                size *= 2
                continue
            }
            guard rc == 0 else { throw SystemError(call, subject, errno: rc) }
            guard result != nil else { return nil }
            return withExtendedLifetime(buffer) { read(group) }
        }
    }
}
