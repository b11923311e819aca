import CLinuxShims
import LinuxSystem
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// Starts `shell -c command` the way actions must run: empty signal mask and default
/// dispositions, a process group of its own, stdin from /dev/null, stderr into a pipe the
/// caller reads, and no other inherited descriptor beyond stdout.
enum ProcessSpawner {
    struct Spawned {
        var pid: pid_t
        /// Read end of the child's stderr, non-blocking, close-on-exec.
        var stderr: FileDescriptor
    }

    static func spawn(shell: String, command: String, environment: [String]) throws(SystemError) -> Spawned {
        var pipeFDs: [Int32] = [-1, -1]
        guard cls_pipe2(&pipeFDs, O_CLOEXEC | O_NONBLOCK) == 0 else { throw SystemError("pipe2", "stderr pipe of \(shell) -c") }
        let readEnd = FileDescriptor(pipeFDs[0])
        defer { close(pipeFDs[1]) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // dup2 clears close-on-exec on the copy; the pipe's own ends stay CLOEXEC.
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        // CLOEXEC everywhere is the rule; this also covers descriptors that other
        // libraries opened without it.
        cls_spawn_file_actions_addclosefrom(&actions, 3)

        let argv: [UnsafeMutablePointer<CChar>?] = [shell, "-c", command].map { (s: String) in strdup(s) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { (s: String) in strdup(s) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, shell, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw SystemError("posix_spawn", shell, errno: rc) }
        return Spawned(pid: pid, stderr: readEnd)
    }
}
