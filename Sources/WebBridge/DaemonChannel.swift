import GestureControl
import GestureCore

#if canImport(Glibc)
import Glibc
#endif

/// A control connection driven by the bridge's loop, never waited on: requests go out one
/// at a time, each reply line completes its request, and each request has a deadline the
/// loop's timer enforces. After a `subscribe` is answered the connection carries the event
/// stream. A request past its deadline is answered as timed out; when it was already sent,
/// the daemon's late reply is read and dropped, so the next reply still finds its request.
final class DaemonChannel {
    /// The daemon's reply line, or why there is none.
    typealias Reply = Result<[UInt8], ControlClientError>
    typealias Completion = (Reply) -> Void

    private struct Request {
        let line: JSONValue
        let deadline: Microseconds
        /// nil once answered (timed out): its reply, if it comes, is dropped.
        var completion: Completion?
        /// A `subscribe`: once the daemon accepts it, the lines that follow are the stream.
        let opensStream: Bool
    }

    enum State {
        /// Replies to requests, in order.
        case requests
        /// The event stream, after an accepted `subscribe`.
        case stream
    }

    private let client: ControlClient
    private(set) var state = State.requests
    /// Waiting for their replies, in order; the first is on the wire when `sent`.
    private var queue: [Request] = []
    private var sent = false
    /// Bytes after the last whole line.
    private var partial: [UInt8] = []

    var descriptor: Int32 { client.descriptor }

    /// Connects without waiting: a daemon whose backlog is full is an error, not a wait.
    init(candidates: [String]) throws(ControlClientError) {
        client = try ControlClient(candidates: candidates, timeout: nil, blocking: false)
    }

    /// The earliest deadline of a request not answered yet.
    var deadline: Microseconds? { queue.lazy.filter { $0.completion != nil }.map(\.deadline).min() }

    /// Whether a request is waiting for its reply (answered or not).
    var isBusy: Bool { !queue.isEmpty }

    /// Queues `{"cmd": command, ...members}`; `completion` gets the reply line or the
    /// failure, on a later turn of the loop (or now, when it cannot be sent).
    func request(
        _ command: String, _ members: [(String, JSONValue)] = [], deadline: Microseconds, opensStream: Bool = false,
        _ completion: @escaping Completion
    ) {
        queue.append(
            Request(
                line: .object([("cmd", .string(command))] + members), deadline: deadline, completion: completion, opensStream: opensStream))
        var answered: [(Completion, Reply)] = []
        sendNext(&answered)
        for (completion, result) in answered { completion(result) }
    }

    /// Reads what the daemon sent (about `maximum` bytes at most this turn). Replies complete
    /// their requests; the stream's lines are returned. `ended`: the daemon closed the
    /// connection (it stopped, or dropped a slow subscriber); what was waiting fails.
    func receive(maximum: Int) -> (lines: [ArraySlice<UInt8>], ended: Bool) {
        var chunk = [UInt8](repeating: 0, count: 16384)
        var total = 0
        var ended = false
        while total < maximum {
            let n = recv(client.descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if n > 0 {
                partial += chunk[0..<n]
                total += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                ended = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
                break
            }
        }
        var lines: [ArraySlice<UInt8>] = []
        var answered: [(Completion, Reply)] = []
        var start = 0
        while let newline = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = partial[start..<newline]
            start = newline + 1
            switch state {
            case .stream:
                if !line.isEmpty { lines.append(line) }
            case .requests:
                // A line nobody asked for (none is sent unasked) is dropped.
                guard sent, !queue.isEmpty else { continue }
                let request = queue.removeFirst()
                sent = false
                if request.opensStream, (try? JSONParser.parse(Array(line)))?["ok"] != nil { state = .stream }
                if let completion = request.completion { answered.append((completion, .success(Array(line)))) }
                if state == .requests { sendNext(&answered) }
            }
        }
        partial.removeFirst(start)
        if ended {
            for request in queue {
                if let completion = request.completion {
                    answered.append((completion, .failure(.protocolViolation("connection closed before the reply"))))
                }
            }
            queue.removeAll()
        }
        for (completion, result) in answered { completion(result) }
        return (lines, ended)
    }

    /// Answers the requests whose deadline passed as timed out (`ControlClientError`'s
    /// "no reply in time", a 504). One not sent yet is dropped unsent.
    func expire(now: Microseconds) {
        var answered: [(Completion, Reply)] = []
        for index in queue.indices.reversed() where queue[index].deadline <= now {
            if let completion = queue[index].completion { answered.append((completion, .failure(.protocolViolation("no reply in time")))) }
            if index == 0 && sent {
                queue[index].completion = nil
            } else {
                queue.remove(at: index)
            }
        }
        for (completion, result) in answered.reversed() { completion(result) }
    }

    private func sendNext(_ answered: inout [(Completion, Reply)]) {
        while !sent, state == .requests, let first = queue.first {
            do {
                try client.send(first.line)
                sent = true
            } catch {
                queue.removeFirst()
                if let completion = first.completion { answered.append((completion, .failure(error))) }
            }
        }
    }
}
