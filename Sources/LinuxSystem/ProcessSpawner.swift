import CLinuxShims

#if canImport(Glibc)
import Glibc
#endif

/// Starts programs with posix_spawn and tells how they ended: the one place that sets up a
/// child's standard streams, signals and process group, and decodes a wait status. The
/// daemon's actions, `gesturectl render`'s rasteriser and the tests' children use it.
public enum ProcessSpawner {
    /// Where a child's standard stream goes.
    public enum Stream {
        case inherit
        case devNull
        /// A pipe whose read end the caller gets (close-on-exec).
        case pipe
        /// A pipe non-blocking at both ends (a daemon reads it from its loop).
        case nonBlockingPipe
    }

    public struct Options {
        public var stdin = Stream.inherit
        public var stdout = Stream.inherit
        public var stderr = Stream.inherit
        /// Empty signal mask, default dispositions, a process group of its own and no
        /// descriptor beyond 0-2: nothing of the parent's state reaches the child.
        public var isolated = false
        /// `NAME=value` entries; nil: this process's environment.
        public var environment: [String]?

        public init(
            stdin: Stream = .inherit, stdout: Stream = .inherit, stderr: Stream = .inherit, isolated: Bool = false,
            environment: [String]? = nil
        ) {
            self.stdin = stdin
            self.stdout = stdout
            self.stderr = stderr
            self.isolated = isolated
            self.environment = environment
        }
    }

    public struct Spawned {
        public var pid: pid_t
        /// The read ends of the streams asked for as pipes.
        public var stdout: FileDescriptor?
        public var stderr: FileDescriptor?
    }

    /// How a child ended.
    public enum Exit: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        /// Decodes waitpid's status (WIFEXITED and the others are macros Swift does not
        /// import); nil for a stopped or continued child.
        public init?(waitStatus status: Int32) {
            if cls_wifexited(status) != 0 {
                self = .exited(cls_wexitstatus(status))
            } else if cls_wifsignaled(status) != 0 {
                self = .signaled(cls_wtermsig(status))
            } else {
                return nil
            }
        }

        /// As a shell says it: the exit code, or 128 plus the signal.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    /// Starts `program` (a path) with `arguments` (after argv[0], which is `program`).
    public static func spawn(_ program: String, arguments: [String], options: Options = Options()) throws(SystemError)
        -> Spawned
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        // The child's ends of the pipes, closed here once it has them.
        var childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }
        var readEnds: [Int32: FileDescriptor] = [:]
        for (fd, stream) in [(Int32(0), options.stdin), (1, options.stdout), (2, options.stderr)] {
            switch stream {
            case .inherit:
                break
            case .devNull:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe, .nonBlockingPipe:
                var ends: [Int32] = [-1, -1]
                let flags = O_CLOEXEC | (stream == .nonBlockingPipe ? O_NONBLOCK : 0)
                guard cls_pipe2(&ends, flags) == 0 else { throw SystemError("pipe2", "fd \(fd) of \(program)") }
                readEnds[fd] = FileDescriptor(ends[0])
                childEnds.append(ends[1])
                // dup2 clears close-on-exec on the copy; the pipe's own ends stay CLOEXEC.
                posix_spawn_file_actions_adddup2(&actions, ends[1], fd)
            }
        }
        if options.isolated {
            var emptyMask = sigset_t()
            sigemptyset(&emptyMask)
            var allSignals = sigset_t()
            sigfillset(&allSignals)
            posix_spawnattr_setsigmask(&attributes, &emptyMask)
            posix_spawnattr_setsigdefault(&attributes, &allSignals)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
            // CLOEXEC everywhere is the rule; this also covers descriptors that other
            // libraries opened without it.
            cls_spawn_file_actions_addclosefrom(&actions, 3)
        }

        var pid: pid_t = 0
        let rc = withCStrings([program] + arguments) { argv in
            guard let environment = options.environment else {
                return posix_spawn(&pid, program, &actions, &attributes, argv, environ)
            }
            return withCStrings(environment) { envp in posix_spawn(&pid, program, &actions, &attributes, argv, envp) }
        }
        guard rc == 0 else { throw SystemError("posix_spawn", program, errno: rc) }
        return Spawned(pid: pid, stdout: readEnds[1], stderr: readEnds[2])
    }

    /// `strings` as exec takes them, NUL-terminated and listed with a nil at the end, for
    /// the time of `body`: in one buffer, not a C string and a copy of it per string (a
    /// command's environment is some fifty, made for every command started).
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count + 1 })
        var offsets: [Int] = []
        offsets.reserveCapacity(strings.count)
        for string in strings {
            offsets.append(bytes.count)
            bytes.append(contentsOf: string.utf8)
            bytes.append(0)
        }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            guard let address = buffer.baseAddress else { return body([nil]) }
            // UInt8 and CChar (Int8) memory may alias: they differ only in signedness.
            let base = UnsafeMutableRawPointer(address).assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafeMutablePointer<CChar>?] = offsets.map { base + $0 }
            pointers.append(nil)
            return body(pointers)
        }
    }

    /// Waits for `pid` to end (through EINTR) and reaps it.
    public static func wait(_ pid: pid_t) throws(SystemError) -> Exit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SystemError("waitpid", "pid \(pid)") }
        }
        // Without WUNTRACED or WCONTINUED, waitpid reports only a child that ended.
        return Exit(waitStatus: status)!
    }
}
