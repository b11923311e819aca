#if canImport(Glibc)
import Glibc
#endif

/// Group names as the system's group database knows them (getgrnam_r: files, LDAP, ...).
enum GroupLookup {
    /// True when a group of this name exists. A failed lookup (an unreachable directory
    /// service) counts as missing: the daemon's start would fail the same way.
    static func exists(_ name: String) -> Bool {
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
            return rc == 0 && result != nil
        }
    }
}
