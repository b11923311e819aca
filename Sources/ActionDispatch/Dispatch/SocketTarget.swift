import GestureCore
import LinuxSystem
import Logging

#if canImport(Glibc)
import Glibc
import SystemLoop
#endif

/// One Unix socket that socket actions send to: connects on demand, never blocks, keeps a
/// bounded queue while the peer is slow or gone, and reconnects with a backoff while
/// messages wait (and only then, so an idle target costs no wake-ups).
final class SocketTarget {
    struct Key: Hashable {
        var path: String
        var datagram: Bool
    }

    static let firstRetry: Microseconds = 100_000
    static let lastRetry: Microseconds = 5_000_000
    /// After failing this long the waiting messages are dropped and retries stop (so a
    /// target that is gone for good does not keep an idle daemon waking); the next
    /// message tries again.
    static let defaultGiveUp: Microseconds = 60_000_000
    let giveUpAfter: Microseconds

    let key: Key
    var capacity: Int
    private let loop: EventLoop
    private let logger: Logger
    private let count: (_ sent: Int, _ dropped: Int, _ failed: Int) -> Void
    private var fd: FileDescriptor?
    private var queue: [[UInt8]] = []
    /// Bytes of the first message already written (stream sockets).
    private var offset = 0
    private var retryDelay = SocketTarget.firstRetry
    private var retryTimer: DeadlineTimer!
    private var failingSince: Microseconds?
    /// Whether the current run of failures or drops was logged (logs once per run).
    private var failureLogged = false
    private var dropLogged = false

    init(
        key: Key, capacity: Int, loop: EventLoop, logger: Logger, giveUpAfter: Microseconds = SocketTarget.defaultGiveUp,
        count: @escaping (_ sent: Int, _ dropped: Int, _ failed: Int) -> Void
    ) throws(SystemError) {
        self.key = key
        self.capacity = capacity
        self.giveUpAfter = giveUpAfter
        self.loop = loop
        self.logger = logger
        self.count = count
        retryTimer = try loop.makeTimer { [unowned self] in self.flush() }
    }

    deinit { disconnect() }

    /// True while messages wait to be sent.
    var hasQueuedMessages: Bool { !queue.isEmpty }

    /// Queues one message and sends what can be sent now.
    func send(_ message: [UInt8]) {
        guard queue.count < capacity else {
            count(0, 1, 0)
            if !dropLogged {
                logger.warning(
                    "socket \(key.path): queue full (\(capacity) messages), dropping new messages",
                    metadata: .journal(.limitReached, limit: .socketQueue))
                dropLogged = true
            }
            return
        }
        dropLogged = false
        // Connected and nothing waiting: send straight from the caller's buffer, so the
        // usual case copies nothing.
        if queue.isEmpty, let fd {
            let n = UnixSocket.send(fd, message[...])
            if n == message.count { return count(1, 0, 0) }
            if n > 0 && !key.datagram { offset = n }
            if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK {
                fail("send", errno)
                queue.append(message)
                return scheduleRetry()
            }
            queue.append(message)
            return loop.modify(fd: fd.rawValue, events: [.readable, .writable])
        }
        queue.append(message)
        if retryTimer.deadline == nil { flush() }
    }

    private func flush() {
        while let message = queue.first {
            if fd == nil, !connect() { return scheduleRetry() }
            guard let fd else { return }
            let n = UnixSocket.send(fd, message[offset...])
            if n < 0 {
                let err = errno
                if err == EAGAIN || err == EWOULDBLOCK {
                    loop.modify(fd: fd.rawValue, events: [.readable, .writable])
                    return
                }
                fail("send", err)
                return scheduleRetry()
            }
            offset += n
            guard offset >= message.count || key.datagram else { continue }
            queue.removeFirst()
            offset = 0
            count(1, 0, 0)
        }
        if let fd { loop.modify(fd: fd.rawValue, events: .readable) }
    }

    private func connect() -> Bool {
        do {
            let socket = try UnixSocket.make(datagram: key.datagram)
            try UnixSocket.connect(socket, to: key.path)
            try loop.register(fd: socket.rawValue) { [unowned self] events in self.serve(events) }
            fd = socket
            retryDelay = SocketTarget.firstRetry
            failingSince = nil
            if failureLogged { logger.notice("socket \(key.path): connected again") }
            failureLogged = false
            return true
        } catch {
            count(0, 0, 1)
            if !failureLogged {
                logger.warning("socket action: \(error); retrying while messages wait")
                failureLogged = true
            }
            return false
        }
    }

    private func serve(_ events: EventLoop.Events) {
        guard let fd else { return }
        var ended = !events.isDisjoint(with: [.hangup, .error])
        if events.contains(.readable) || ended {
            // Replies are not part of the protocol: drain and discard. End of file or a
            // pending error (a datagram peer that went away) means this connection is over;
            // reading also clears the error, so the loop cannot spin on it.
            var scratch: [UInt8] = []
            while true {
                do {
                    guard let n = try fd.readAvailable(into: &scratch, max: 4096) else { break }
                    if n == 0 {
                        ended = true
                        break
                    }
                } catch {
                    ended = true
                    break
                }
                scratch.removeAll(keepingCapacity: true)
            }
        }
        if ended {
            disconnect()
            if !queue.isEmpty { scheduleRetry() }
            return
        }
        if events.contains(.writable) { flush() }
    }

    private func fail(_ operation: String, _ err: Int32) {
        count(0, 0, 1)
        if !failureLogged {
            logger.warning("socket action: \(SystemError(operation, key.path, errno: err)); retrying while messages wait")
            failureLogged = true
        }
        disconnect()
        // A stream message cut in half is sent again whole on the next connection.
        offset = 0
    }

    private func disconnect() {
        guard let fd else { return }
        loop.unregister(fd: fd.rawValue)
        self.fd = nil
    }

    private func scheduleRetry() {
        guard !queue.isEmpty, retryTimer.deadline == nil else { return }
        let now = loop.now()
        let since = failingSince ?? now
        failingSince = since
        if now - since >= giveUpAfter {
            logger.warning(
                "socket \(key.path): unreachable for \(Double(giveUpAfter) / 1_000_000) s, dropping \(queue.count) waiting messages")
            count(0, queue.count, 0)
            queue.removeAll()
            offset = 0
            failingSince = nil
            retryDelay = SocketTarget.firstRetry
            return
        }
        retryTimer.set(now + retryDelay)
        retryDelay = min(retryDelay * 2, SocketTarget.lastRetry)
    }
}
