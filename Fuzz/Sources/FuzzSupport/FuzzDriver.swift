import CFuzzer

#if canImport(Glibc)
import Glibc
#endif

/// The target of this process; libFuzzer calls back through a C function, which cannot
/// capture it. Set once before the loop starts, read only by the loop's thread.
nonisolated(unsafe) private var target: ((UnsafeRawBufferPointer) -> Void)?

/// Runs libFuzzer's loop (options and corpus folders from the command line) on `body`,
/// and exits with its status. A crash, a sanitizer report or `FuzzCheck.fail` ends it with
/// the input written out as `crash-...`.
public func runFuzzer(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
    target = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(
        LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            target?(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        })
}

/// An invariant that does not hold: printed, then the process aborts so that libFuzzer
/// keeps the input.
public enum FuzzCheck {
    public static func fail(_ message: String) -> Never {
        let line = Array("invariant broken: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        abort()
    }

    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes as text, invalid UTF-8 repaired (what a file reader would have refused
    /// before the parser: parsers are fuzzed on every text they can be given).
    public var text: String { String(decoding: self, as: UTF8.self) }
}

/// The process environment without Foundation.
public enum ProcessInfoEnvironment {
    public static func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
