import LinuxSystem

/// Splits a child's stderr into lines for the log. Lines longer than `maximumLine` are cut
/// there, so a child cannot make the daemon buffer without bound.
final class StderrRelay {
    static let maximumLine = 4096

    private let fd: FileDescriptor
    private let emit: (String) -> Void
    private var pending: [UInt8] = []

    init(fd: FileDescriptor, emit: @escaping (String) -> Void) {
        self.fd = fd
        self.emit = emit
    }

    /// Reads what is available and logs the complete lines. True at end of file (or a read
    /// error): the relay is finished, the rest was flushed.
    func drain() -> Bool {
        while true {
            let n: Int?
            do { n = try fd.readAvailable(into: &pending) } catch { n = 0 }
            guard let n else { break }
            if n == 0 {
                if !pending.isEmpty { emitLine(pending[...]) }
                pending.removeAll()
                return true
            }
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                emitLine(pending[..<newline])
                pending.removeSubrange(...newline)
            }
            if pending.count >= StderrRelay.maximumLine {
                emitLine(pending[..<StderrRelay.maximumLine])
                pending.removeSubrange(..<StderrRelay.maximumLine)
            }
        }
        return false
    }

    private func emitLine(_ bytes: ArraySlice<UInt8>) {
        emit(String(decoding: bytes, as: UTF8.self))
    }
}
