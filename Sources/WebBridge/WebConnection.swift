import GestureCore
import LinuxSystem
import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

/// One browser connection: the bytes it sent that are not a whole request yet, the bytes
/// waiting for it to read, and what it is doing (`State`).
final class WebConnection {
    enum State {
        /// Reading requests, or idle between them (keep-alive).
        case requests
        /// A request waits for the daemon's reply (bounded by the reply deadline, not the
        /// request's); the requests after it wait their turn, as HTTP/1.1 answers in order.
        case awaitingDaemon
        /// An event stream (`GET /events`): the page's session.
        case stream(PageSession)
    }

    let fd: FileDescriptor
    var input: [UInt8] = []
    private(set) var output: [UInt8] = []
    private var sent = 0
    /// When the first byte of the request being read arrived (the request's deadline runs from it).
    var requestStarted: Microseconds?
    var lastActive: Microseconds
    /// Close once the output is written (a refusal, `Connection: close`, a stream that ended).
    var closeAfterWrite = false
    var state = State.requests

    var session: PageSession? {
        guard case .stream(let session) = state else { return nil }
        return session
    }

    init(fd: FileDescriptor, now: Microseconds) {
        self.fd = fd
        lastActive = now
    }

    /// Bytes queued and not yet taken by the peer.
    var pending: Int { output.count - sent }

    func queue(_ bytes: [UInt8]) { output += bytes }

    enum Flush {
        case done
        case blocked
        case failed
    }

    /// Writes what the socket takes now.
    func flush() -> Flush {
        while sent < output.count {
            let n = UnixSocket.send(fd, output[sent...])
            if n > 0 {
                sent += n
            } else if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                // Drop what was written once it is a good part of the buffer.
                if sent > 65536 {
                    output.removeFirst(sent)
                    sent = 0
                }
                return .blocked
            } else if n < 0, errno == EINTR {
                continue
            } else {
                return .failed
            }
        }
        output.removeAll(keepingCapacity: true)
        sent = 0
        return .done
    }
}
