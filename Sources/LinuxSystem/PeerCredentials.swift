import CLinuxShims

#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a connected Unix socket, as the kernel recorded it at
/// connect(2): SO_PEERCRED's pid, uid and gid, and SO_PEERGROUPS' supplementary groups.
/// A client cannot forge them, and a later setuid of the client does not change them.
public struct PeerCredentials: Equatable, Sendable {
    public var pid: pid_t
    public var uid: uid_t
    public var gid: gid_t
    /// Supplementary groups (without `gid` unless the process lists it itself).
    public var groups: [gid_t]

    public init(pid: pid_t, uid: uid_t, gid: gid_t, groups: [gid_t] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// True when the peer has `group` as its primary or a supplementary group.
    public func isMember(of group: gid_t) -> Bool { gid == group || groups.contains(group) }

    /// SO_PEERGROUPS: Linux 4.13; the option number is the same on every architecture
    /// gestured builds for, and Glibc's overlay does not export it.
    static let peerGroupsOption: Int32 = 59

    /// The credentials of `fd`'s peer.
    public static func of(_ fd: FileDescriptor) throws(SystemError) -> PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        guard cls_peer_credentials(fd.rawValue, &pid, &uid, &gid) == 0 else {
            throw SystemError("getsockopt(SO_PEERCRED)", "control connection")
        }
        return PeerCredentials(pid: pid, uid: uid, gid: gid, groups: try supplementaryGroups(of: fd))
    }

    /// SO_PEERGROUPS, grown until the list fits (the kernel says how much it needs).
    private static func supplementaryGroups(of fd: FileDescriptor) throws(SystemError) -> [gid_t] {
        var groups = [gid_t](repeating: 0, count: 32)
        while true {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            let rc = getsockopt(fd.rawValue, SOL_SOCKET, peerGroupsOption, &groups, &length)
            let count = Int(length) / MemoryLayout<gid_t>.size
            if rc == 0 { return Array(groups.prefix(count)) }
            guard errno == ERANGE, count > groups.count else {
                throw SystemError("getsockopt(SO_PEERGROUPS)", "control connection")
            }
            groups = [gid_t](repeating: 0, count: count)
        }
    }
}
