import CLinuxShims

#if canImport(Glibc)
import Glibc
#endif

/// A POSIX access ACL (acl(5)) that gives one more group the file's group permissions:
/// the way a socket file, which has one owning group, lets a second group connect. Written
/// as the `system.posix_acl_access` attribute in the kernel's format (what setfacl(1)
/// writes), so no libacl is needed; `getfacl` and `ls -l` (`+`) show it.
public enum GroupACL {
    /// acl_ea_header's version and the entry tags (linux/posix_acl_xattr.h, posix_acl.h).
    private static let version: UInt32 = 2
    private static let userObject: UInt16 = 0x01
    private static let groupObject: UInt16 = 0x04
    private static let group: UInt16 = 0x08
    private static let mask: UInt16 = 0x10
    private static let other: UInt16 = 0x20
    private static let undefinedID = UInt32.max
    static let attribute = "system.posix_acl_access"

    /// Sets `path`'s ACL to `mode` (the owner, group and other bits) plus `extra` with the
    /// group bits. Fails with EOPNOTSUPP on a file system without ACLs.
    public static func grant(_ extra: gid_t, on path: String, mode: UInt32) throws(SystemError) {
        let bytes = encode(extra, mode: mode)
        let rc = bytes.withUnsafeBytes { setxattr(path, attribute, $0.baseAddress, $0.count, 0) }
        guard rc == 0 else {
            throw SystemError(
                "setxattr(\(attribute))", path,
                hint: "the file system of the control socket must support POSIX ACLs for [daemon] control_group (tmpfs and ext4 do)")
        }
    }

    /// The groups `path`'s ACL names besides its owning group (empty without an ACL).
    public static func namedGroups(of path: String) -> [gid_t] {
        var bytes = [UInt8](repeating: 0, count: 256)
        let n = bytes.withUnsafeMutableBytes { getxattr(path, attribute, $0.baseAddress, $0.count) }
        guard n >= 4 else { return [] }
        return stride(from: 4, to: n - 7, by: 8).compactMap { offset in
            read16(bytes, offset) == group ? read32(bytes, offset + 4) : nil
        }
    }

    /// Entries sorted by tag, as the kernel requires; a named group needs a mask.
    static func encode(_ extra: gid_t, mode: UInt32) -> [UInt8] {
        let groupBits = UInt16((mode >> 3) & 7)
        var bytes: [UInt8] = []
        append32(&bytes, version)
        for (tag, permissions, id) in [
            (userObject, UInt16((mode >> 6) & 7), undefinedID), (groupObject, groupBits, undefinedID),
            (group, groupBits, UInt32(extra)), (mask, groupBits, undefinedID), (other, UInt16(mode & 7), undefinedID),
        ] {
            append16(&bytes, tag)
            append16(&bytes, permissions)
            append32(&bytes, id)
        }
        return bytes
    }

    private static func append16(_ bytes: inout [UInt8], _ value: UInt16) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }

    private static func append32(_ bytes: inout [UInt8], _ value: UInt32) {
        append16(&bytes, UInt16(value & 0xFFFF))
        append16(&bytes, UInt16(value >> 16))
    }

    private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(read16(bytes, at)) | UInt32(read16(bytes, at + 2)) << 16
    }
}
