#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import LinuxSystem

/// One client of the control socket: reads request lines, buffers what it cannot send at
/// once up to `outputLimit`, and is told to go away when that overflows.
final class ControlConnection {
    enum Mode: Equatable {
        case requests
        case subscriber(trace: Bool)
    }

    let fd: FileDescriptor
    var mode: Mode = .requests
    /// When the first byte of an unfinished request arrived.
    private(set) var partialSince: Microseconds?
    /// Close once the pending output is sent (after a fatal error reply).
    var closeAfterFlush = false
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var outputStart = 0
    private let outputLimit: Int

    init(fd: FileDescriptor, outputLimit: Int) {
        self.fd = fd
        self.outputLimit = outputLimit
    }

    var hasPendingOutput: Bool { outputStart < output.count }

    enum ReadResult {
        case lines([ArraySlice<UInt8>])
        case oversized
        case closed
    }

    /// Reads what is there; returns the complete lines, `oversized` when a line grows past
    /// `maximumLine`, `closed` at end of file or error.
    func read(maximumLine: Int) -> ReadResult {
        var ended = false
        while true {
            do {
                guard let n = try fd.readAvailable(into: &input, max: 4096) else { break }
                if n == 0 { ended = true; break }
            } catch {
                ended = true
                break
            }
            if input.count > maximumLine && !input.contains(UInt8(ascii: "\n")) { return .oversized }
        }
        var lines: [ArraySlice<UInt8>] = []
        var start = input.startIndex
        while let newline = input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline - start > maximumLine { return .oversized }
            lines.append(input[start..<newline])
            start = newline + 1
        }
        input = Array(input[start...])
        if input.count > maximumLine { return .oversized }
        partialSince = input.isEmpty ? nil : (partialSince ?? MonotonicClock.now())
        if ended && lines.isEmpty { return .closed }
        return .lines(lines)
    }

    enum SendResult {
        case sent
        /// More than `outputLimit` bytes would wait: the client is too slow.
        case overflow
        /// The peer is gone.
        case failed
    }

    /// Sends `bytes`, buffering what the socket does not take now.
    func send(_ bytes: [UInt8]) -> SendResult {
        if !hasPendingOutput {
            let n = UnixSocket.send(fd, bytes[...])
            if n == bytes.count { return .sent }
            if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK { return .failed }
            output.removeAll(keepingCapacity: true)
            outputStart = 0
            output.append(contentsOf: bytes[max(n, 0)...])
        } else {
            output.append(contentsOf: bytes)
        }
        return output.count - outputStart <= outputLimit ? .sent : .overflow
    }

    /// Sends buffered output; false on a send error (peer gone).
    func flush() -> Bool {
        while hasPendingOutput {
            let n = UnixSocket.send(fd, output[outputStart...])
            if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK }
            outputStart += n
        }
        output.removeAll(keepingCapacity: true)
        outputStart = 0
        return true
    }
}
