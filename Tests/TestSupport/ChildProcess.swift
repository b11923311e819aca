import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and collects its standard output, for tests that need a separate process
/// (e.g. one started under LD_PRELOAD).
public enum ChildProcess {
    public struct Result {
        /// As a shell says it: the exit code, or 128 plus the signal.
        public var status: Int32
        public var output: String
    }

    /// Runs `path` with `arguments` and `environment` added to this process's environment.
    public static func run(_ path: String, arguments: [String] = [], environment: [String: String] = [:]) throws -> Result {
        var env: [String] = []
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if !environment.keys.contains(where: { text.hasPrefix($0 + "=") }) { env.append(text) }
            p += 1
        }
        env += environment.map { "\($0.key)=\($0.value)" }
        // The pipe is close-on-exec: children other tests spawn meanwhile do not inherit it.
        let spawned = try ProcessSpawner.spawn(path, arguments: arguments, options: .init(stdout: .pipe, environment: env))
        var output = [UInt8]()
        if let stdout = spawned.stdout {
            while try stdout.readAvailable(into: &output, max: 65536) ?? 0 > 0 {}
        }
        let exit = try ProcessSpawner.wait(spawned.pid)
        return Result(status: exit.shellStatus, output: String(decoding: output, as: UTF8.self))
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
