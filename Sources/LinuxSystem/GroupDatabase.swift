#if canImport(Glibc)
import Glibc
#endif

/// The system's group database, as getgrnam_r(3) sees it (files, LDAP, ...).
public enum GroupDatabase {
    /// The id of the group called `name`, nil when there is none. A lookup that fails
    /// (an unreachable directory service) throws with its errno.
    public static func id(of name: String) throws(SystemError) -> gid_t? {
        var group = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var size = 4_096
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let rc = getgrnam_r(name, &group, &buffer, buffer.count, &result)
            // A group with many members needs a larger buffer.
            if rc == ERANGE, size < 1 << 20 {
                size *= 2
                continue
            }
            guard rc == 0 else { throw SystemError("getgrnam_r", "group \(name)", errno: rc) }
            return result == nil ? nil : group.gr_gid
        }
    }
}
