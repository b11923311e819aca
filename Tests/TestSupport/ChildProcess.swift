#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and collects its standard output, for tests that need a separate process
/// (e.g. one started under LD_PRELOAD).
public enum ChildProcess {
    public struct Result {
        public var status: Int32
        public var output: String
    }

    public enum Failure: Error, CustomStringConvertible {
        case spawn(path: String, errno: Int32)
        public var description: String {
            switch self {
            case .spawn(let path, let code): "cannot run \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Runs `path` with `arguments` and `environment` added to this process's environment.
    public static func run(_ path: String, arguments: [String] = [], environment: [String: String] = [:]) throws -> Result {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure.spawn(path: path, errno: errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])

        var env: [String] = []
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if !environment.keys.contains(where: { text.hasPrefix($0 + "=") }) { env.append(text) }
            p += 1
        }
        env += environment.map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid = pid_t()
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw Failure.spawn(path: path, errno: rc)
        }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n > 0 { output += buffer[..<n] } else if n == 0 || errno != EINTR { break }
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exit, output: String(decoding: output, as: UTF8.self))
    }

    /// The folder of the running test binary (`.build/<triple>/<config>`), where SwiftPM puts
    /// the package's executables and libraries.
    public static var buildDirectory: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return "." }
        var path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The test binary may sit inside an .xctest bundle folder on some toolchains.
        while let slash = path.lastIndex(of: "/") {
            path = String(path[..<slash])
            if !path.hasSuffix(".xctest") { break }
        }
        return path
    }
}
