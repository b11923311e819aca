import DaemonTestSupport
import GestureConfig
import GestureControl
import GestureCore
import Logging
import TestSupport
import Testing

@testable import ActionDispatch
@testable import GestureDaemon
@testable import SystemLoop

#if canImport(Glibc)
import Glibc
#endif

private final class StatusOnly: ControlHandler {
    func handle(_ request: DaemonRequest, from peer: ControlPeer) -> ControlReply { .success(.null) }
}

/// Voluntary context switches of the calling thread so far.
private func contextSwitches() -> Int? {
    guard let text = readText("/proc/thread-self/status") else { return nil }
    return text.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        .flatMap { Int($0.split(separator: "\t").last ?? "") }
}

@Suite struct IdleTests {
    @Test func idleMachineryArmsNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let config = try makeConfiguration([
            (
                "t", .tap,
                [
                    .recognized: [
                        ActionSpec(kind: .command("true"), timeout: 60_000_000),
                        ActionSpec(kind: .socket(path: dir.file("app.sock"), message: nil, datagram: false)),
                    ]
                ]
            )
        ])
        let listener = try Listener(path: dir.file("app.sock"), datagram: false)
        let dispatcher = try Dispatcher(loop: loop, configuration: config, origin: 0, logger: Logger(label: "test"))
        let handler = StatusOnly()
        let server = try ControlServer(loop: loop, path: dir.file("ctl.sock"), handler: handler, logger: Logger(label: "test"))
        // Work once: a child runs and exits, a message is sent, a client comes and goes.
        dispatcher.dispatch(GestureEvent(time: 0, gesture: 0, view: 1, state: .recognized, device: DeviceID(1)))
        do {
            let client = try ControlClient(candidates: [server.path])
            try client.sendRaw(Array("{\"cmd\":\"st".utf8))
            #expect(try serve(loop) { server.status.values[ControlMetrics.connections] == 1 })
        }
        #expect(try serve(loop) { listener.accept() != nil })
        #expect(
            try serve(loop) {
                dispatcher.runningChildren == 0 && dispatcher.counters.socketMessagesSent == 1
                    && server.status.values[ControlMetrics.connections] == 0
            })
        #expect(dispatcher.status[DispatcherMetrics.runningChildren] == 0)
        // Then idle: no timer armed, nothing ready, one sleep for the whole second.
        let before = contextSwitches()
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 0)
        let after = contextSwitches()
        if let before, let after { #expect(after - before <= 2, "woke \(after - before) times while idle") }
    }
}
