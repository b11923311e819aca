import ActionDispatch
import GestureCore
import LinuxSystem

#if canImport(Glibc)
import Glibc
import SystemLoop
#endif

/// One client of the control socket: reads request lines within a per-turn budget, holds
/// what it cannot send at once, and is told to go away when a subscriber's backlog passes
/// `outputLimit`. Replies to requests are never cut: while one waits to be sent, the
/// connection's next requests are not read (the client's own backlog is what it waits on).
final class ControlConnection {
    enum Mode: Equatable {
        case requests
        case subscriber(trace: Bool)
    }

    /// Bytes read from one connection per wake, so a client that streams cannot hold the
    /// loop while others wait (the loop is level-triggered and comes back for the rest).
    static let readBudget = 16 * 1024

    let fd: FileDescriptor
    /// Who connected; nil for one accepted only to be answered `busy`.
    let peer: ControlPeer?
    var mode: Mode = .requests
    /// A subscriber that also wants every contact (`"touches": true`).
    var wantsTouches = false
    /// A subscriber that wants continuous gestures' `changed` at the display's pace, as
    /// actions get them (`"coalesce": true`), not every one.
    var coalesces = false
    /// When the first byte of an unfinished request arrived.
    private(set) var partialSince: Microseconds?
    /// When a request was last answered, a reply made progress, or the connection was accepted.
    private(set) var lastActive: Microseconds
    /// It sent `set`, `mode` or `reset`: its changes live as long as it does, so it is
    /// never closed for being idle (as a subscriber is not).
    var ownsChanges = false
    /// A command was refused to it (logged once per connection).
    var wasRefused = false
    /// Close once the pending output is sent (after a fatal error reply).
    var closeAfterFlush = false
    private var input: [UInt8] = []
    /// Start of the first unanswered line in `input`.
    private var inputStart = 0
    private var output: [UInt8] = []
    private var outputStart = 0
    /// Bytes a subscriber may fall behind by; replies to requests are not limited.
    var outputLimit: Int
    /// What the loop watches the descriptor for (kept to skip needless `epoll_ctl` calls).
    var interest: EventLoop.Events = .readable

    init(fd: FileDescriptor, peer: ControlPeer?, outputLimit: Int, now: Microseconds) {
        self.fd = fd
        self.peer = peer
        self.outputLimit = outputLimit
        lastActive = now
    }

    var hasPendingOutput: Bool { outputStart < output.count }

    /// Idle: asks nothing, owes nothing, is not a subscriber and owns no changes (may be evicted).
    var isIdle: Bool {
        mode == .requests && !ownsChanges && partialSince == nil && !hasPendingOutput && inputStart == input.count
    }

    /// Not a subscriber, owning no changes and not in the middle of a request: closed after the idle timeout,
    /// also when its replies wait because it does not read them.
    var mayTimeOut: Bool { mode == .requests && !ownsChanges && partialSince == nil }

    enum ReadResult {
        /// Read what there was (maybe nothing).
        case read
        /// The peer is gone (end of file or error) and no complete line waits.
        case closed
    }

    /// Reads up to `readBudget` bytes.
    func read() -> ReadResult {
        if inputStart > 0 {
            input.removeSubrange(..<inputStart)
            inputStart = 0
        }
        var budget = Self.readBudget
        while budget > 0 {
            do {
                guard let n = try fd.readAvailable(into: &input, max: min(4096, budget)) else { break }
                if n == 0 { return hasCompleteLine ? .read : .closed }
                budget -= n
            } catch {
                return hasCompleteLine ? .read : .closed
            }
        }
        return .read
    }

    /// Forgets what was read (a subscriber's input is read only to see it close).
    func discardInput() {
        input.removeAll(keepingCapacity: true)
        inputStart = 0
    }

    private var hasCompleteLine: Bool { input[inputStart...].contains(UInt8(ascii: "\n")) }

    enum LineResult {
        case line(ArraySlice<UInt8>)
        /// The next line is (or already grows) longer than the limit.
        case oversized
        /// No complete line yet.
        case none
    }

    /// The next complete request line, checking every line against `maximumLine`.
    func nextLine(maximumLine: Int, now: Microseconds) -> LineResult {
        let rest = input[inputStart...]
        guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else {
            partialSince = rest.isEmpty ? nil : (partialSince ?? now)
            return rest.count > maximumLine ? .oversized : .none
        }
        guard newline - inputStart <= maximumLine else { return .oversized }
        inputStart = newline + 1
        partialSince = nil
        lastActive = now
        return .line(rest[..<newline])
    }

    enum SendResult {
        case sent
        /// More than `outputLimit` bytes would wait: the subscriber is too slow.
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
        guard case .subscriber = mode else { return .sent }
        return output.count - outputStart <= outputLimit ? .sent : .overflow
    }

    /// Sends buffered output; false on a send error (peer gone). `now` is when, for the
    /// idle timeout: a reply making progress is activity.
    func flush(now: Microseconds) -> Bool {
        if hasPendingOutput && mode == .requests { lastActive = now }
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
