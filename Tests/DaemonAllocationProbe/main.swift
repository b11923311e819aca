// Counts the heap allocations of the daemon's per-event path with ordo-one's malloc
// interposer: the event JSON line, a socket message template, publishing to two
// subscribers, and a datagram socket action. Run under LD_PRELOAD=libMallocInterposerSwift.so
// (GestureDaemonTests does); prints one line:
//   events <n> json_mallocs <n> template_mallocs <n> publish_mallocs <n> socket_mallocs <n> control <n> ns_per_line <n>
// `control` counts one deliberate allocation, proving the interposer is really loaded.

import ActionDispatch
import GestureConfig
import GestureControl
import GestureCore
import GestureDaemon
import JSONOutput
import Logging
import MallocInterposerSwift
import SystemLoop
import TouchInput

#if canImport(Glibc)
import Glibc
#endif

final class Handler: ControlHandler {
    func handle(_ request: DaemonRequest, from peer: ControlPeer) -> ControlReply { .success(.null) }
}

func fail(_ message: String) -> Never {
    print("probe: \(message)")
    exit(1)
}

/// Counts mallocs of `body` (called after one warm-up run).
func mallocs(_ body: () -> Void) -> Int {
    body()
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.hook()
    body()
    MallocInterposerSwift.unhook()
    return MallocInterposerSwift.getStatistics().mallocCount
}

func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

let names = GestureNames(
    gestures: ["scroll", "zoom", "turn", "back", "edge", "tap"],
    types: [.pan, .pinch, .rotation, .swipe, .edgePan, .tap], views: ["root"])
let device = DeviceID(1)
// One event per type, with values on every field they print.
let events: [GestureEvent] = [
    GestureEvent(
        time: 1_234_567, gesture: 0, view: 0, state: .changed, device: device, x: 100.5, y: 200.25, touches: 2,
        translationX: -12.5, translationY: 3, velocityX: 812.3, velocityY: -40.1),
    GestureEvent(time: 2_000_000, gesture: 1, view: 0, state: .changed, device: device, x: 1, y: 2, touches: 2, scale: 1.25, velocity: 0.5),
    GestureEvent(time: 3_000_000, gesture: 2, view: 0, state: .began, device: device, touches: 2, rotation: -0.3, velocity: 1.5),
    GestureEvent(time: 4_000_000, gesture: 3, view: 0, state: .recognized, device: device, touches: 1, direction: .left),
    GestureEvent(time: 5_000_000, gesture: 4, view: 0, state: .ended, device: device, touches: 1, translationX: 40, edge: .left),
    GestureEvent(time: 6_000_000, gesture: 5, view: 0, state: .recognized, device: device, touches: 1, delayedFrom: 5_650_000),
]
let rounds = 200

var writer = JSONWriter(capacity: 1024)
let jsonMallocs = mallocs {
    for _ in 0..<rounds { for i in 0..<events.count { EventJSON.line(events[i], names: names, origin: 0, into: &writer) } }
}
let started = now()
for _ in 0..<rounds { for i in 0..<events.count { EventJSON.line(events[i], names: names, origin: 0, into: &writer) } }
let nsPerLine = (now() - started) / Int64(rounds * events.count)

let template = try CompiledTemplate(
    MessageTemplate(segments: [
        .text("gesture="), .field("gesture"), .text(" state="), .field("state"), .text(" x="), .field("x"),
        .text(" dir="), .field("direction"), .text(" t="), .field("t"), .text("\n"),
    ]))
let templateMallocs = mallocs {
    for _ in 0..<rounds { for i in 0..<events.count { template.render(events[i], names: names, origin: 0, into: &writer) } }
}

// Two subscribers on a real control socket, kept drained between rounds.
let directory = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/gestured-probe-\(getpid())"
mkdir(directory, 0o700)
defer { _ = system("rm -rf '\(directory)'") }
let loop = try EventLoop()
let handler = Handler()
let server = try ControlServer(
    loop: loop, path: directory + "/ctl.sock", subscriberBuffer: 1 << 20, handler: handler,
    logger: Logger(label: "probe"))
var clients: [ControlClient] = []
for _ in 0..<2 {
    let client = try ControlClient(candidates: [server.path])
    try client.send(.object([("cmd", .string("subscribe"))]))
    clients.append(client)
}
let deadline = now() + 5_000_000_000
while server.subscriberCount < 2 {
    if now() > deadline { fail("subscribers did not register") }
    try loop.runOnce(timeoutMilliseconds: 10)
}
let publishMallocs = mallocs {
    for i in 0..<events.count { server.publish(events[i], names: names, origin: 0) }
}
if server.subscriberCount != 2 { fail("a subscriber was dropped") }

// A datagram socket action to a bound receiver.
let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
var address = sockaddr_un()
address.sun_family = sa_family_t(AF_UNIX)
let receiverPath = directory + "/dgram.sock"
withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in receiverPath.utf8.enumerated() { raw[i] = b } }
var size: Int32 = 1 << 20
setsockopt(receiver, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(receiver, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
}
if bound != 0 { fail("bind \(receiverPath): \(String(cString: strerror(errno)))") }
let configuration = Configuration(
    daemon: DaemonSettings(),
    model: try GestureModel(
        screen: ScreenSize(width: 100, height: 100),
        views: [ViewSpec(name: "root", parent: nil, frame: Rect(x: 0, y: 0, width: 100, height: 100))],
        gestures: [GestureSpec(name: "scroll", view: 0, parameters: GestureDefaults.parameters(for: .pan))]),
    devices: [],
    actions: [GestureActions(byState: [.changed: [ActionSpec(kind: .socket(path: receiverPath, message: nil, datagram: true))]])])
let dispatcher = try Dispatcher(loop: loop, configuration: configuration, origin: 0, logger: Logger(label: "probe"))
var datagram = [UInt8](repeating: 0, count: 4096)
let socketMallocs = mallocs {
    // The receiver reads each one at once (a Unix datagram queue holds only ~10).
    for _ in 0..<20 {
        // A `changed` action runs on the pipeline's paced event (60 Hz by default).
        dispatcher.dispatch(events[0], paced: 16_667)
        if recv(receiver, &datagram, datagram.count, Int32(MSG_DONTWAIT)) <= 0 { fail("datagram not received") }
    }
}
if dispatcher.counters.socketMessagesSent != 40 { fail("socket messages sent: \(dispatcher.counters.socketMessagesSent)") }

MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
let controlArray = [Int](repeating: rounds, count: 64)
MallocInterposerSwift.unhook()
let control = MallocInterposerSwift.getStatistics().mallocCount
precondition(controlArray.count == 64)

print(
    "events \(rounds * events.count) json_mallocs \(jsonMallocs) template_mallocs \(templateMallocs)",
    "publish_mallocs \(publishMallocs) socket_mallocs \(socketMallocs) control \(control) ns_per_line \(nsPerLine)")
