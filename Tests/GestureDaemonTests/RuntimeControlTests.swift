import ActionDispatch
import DaemonTestSupport
import GestureConfig
import GestureControl
import GestureCore
import LinuxSystem
import Logging
import SystemLoop
import TestSupport
import Testing

@testable import GestureDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The runtime commands against a real daemon in this process: real sockets, a manual
/// clock moved instead of sleeping (docs/PROTOCOL.md, `set`, `mode`, `reset`).
@Suite struct RuntimeControlTests {
    /// A daemon on a config with gestures `wake` (tap) and `drag` (pan) on view `panel`, and
    /// a mode `quiet` that turns `drag` off.
    final class Harness {
        let dir: TemporaryDirectory
        let clock = ManualClock()
        let daemon: Daemon

        init() throws {
            dir = try TemporaryDirectory()
            var configuration = try makeConfiguration([("wake", .tap, [:]), ("drag", .pan, [:])])
            configuration.modes = [ModeSpec(name: "quiet", gestures: [ModeSpec.Toggle(index: 1, enabled: false)])]
            let options = DaemonOptions(configPath: dir.file("none.toml"), socketPath: dir.file("ctl.sock"))
            daemon = try Daemon(
                options: options, configuration: configuration, environment: [:], logger: Logger(label: "test"), clock: .manual(clock),
                adoptsOrphans: false)
        }

        deinit {
            daemon.server.close()
            dir.remove()
        }

        /// Serves the loop until `done`, or fails after 10 s of real time.
        func serve(until done: () throws -> Bool) throws -> Bool {
            for _ in 0..<2_000 {
                try daemon.turn(timeoutMilliseconds: 5)
                if try done() { return true }
            }
            return false
        }

        /// A client that sends one request and reads its reply while the daemon serves.
        func connect() throws -> Client { try Client(daemon.server.path) }
    }

    final class Client {
        let fd: FileDescriptor
        var received: [UInt8] = []
        init(_ path: String) throws {
            fd = try UnixSocket.make(datagram: false)
            try UnixSocket.connect(fd, to: path)
        }
        func send(_ text: String) { _ = UnixSocket.send(fd, Array((text + "\n").utf8)[...]) }
        var lines: [String] {
            while let n = try? fd.readAvailable(into: &received, max: 65536), n > 0 {}
            return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        func json(_ i: Int) throws -> JSONValue { try JSONParser.parse(lines[i]) }
    }

    /// A change lives as long as its connection; `keep` outlives it until `reset`; status
    /// lists each with its owner.
    @Test func changesLiveWithTheirConnectionUnlessKept() throws {
        let harness = try Harness()
        var app: Client? = try harness.connect()
        app?.send(#"{"cmd": "set", "gesture": "drag", "enabled": false}"#)
        app?.send(#"{"cmd": "set", "gesture": "wake", "enabled": false, "keep": true}"#)
        #expect(try harness.serve { app?.lines.count == 2 })
        #expect(try app?.json(0)["ok"]?["changed"] == .array([.object([("gesture", .string("drag")), ("enabled", .bool(false))])]))
        var status = harness.daemon.statusValue()
        #expect(status.runtime.changes.map(\.name) == ["drag", "wake"])
        #expect(status.runtime.changes.allSatisfy { $0.owner.pid == Int(getpid()) && $0.owner.uid == Int(getuid()) })
        #expect(status.gestures.map(\.enabled) == [false, false])

        app = nil  // the application crashes
        #expect(try harness.serve { harness.daemon.statusValue().runtime.changes.count == 1 })
        status = harness.daemon.statusValue()
        #expect(status.runtime.changes.first?.name == "wake" && status.runtime.changes.first?.keep == true)
        #expect(status.gestures.map(\.enabled) == [false, true])

        let admin = try harness.connect()
        admin.send(#"{"cmd": "reset", "all": true}"#)
        #expect(try harness.serve { admin.lines.count == 1 })
        #expect(try admin.json(0)["ok"]?["undone"] == .array([.object([("gesture", .string("wake"))])]))
        #expect(harness.daemon.statusValue().gestures.map(\.enabled) == [true, true])
    }

    /// A mode with `for` ends by itself when the clock passes its end; a subscriber gets a
    /// line when it begins and when it ends, and status shows it meanwhile.
    @Test func aModeWithForEndsByItself() throws {
        let harness = try Harness()
        let subscriber = try harness.connect()
        subscriber.send(#"{"cmd": "subscribe"}"#)
        let app = try harness.connect()
        app.send(#"{"cmd": "mode", "mode": "quiet", "for": "60s", "keep": true}"#)
        #expect(try harness.serve { app.lines.count == 1 && subscriber.lines.count >= 2 })
        #expect(try app.json(0)["ok"]?["mode"]?["mode"] == .string("quiet"))
        #expect(try subscriber.json(1)["mode"] == .string("quiet"))
        #expect(try subscriber.json(1)["cause"] == .string("switched"))
        let status = harness.daemon.statusValue()
        #expect(status.runtime.mode?.name == "quiet")
        #expect(status.gestures.map(\.enabled) == [true, false])
        #expect(harness.daemon.dispatcher.mode == "quiet")

        harness.clock.advance(by: 59_000_000)
        _ = try harness.serve { true }
        #expect(harness.daemon.statusValue().runtime.mode?.name == "quiet")
        harness.clock.advance(by: 1_000_000)
        #expect(try harness.serve { harness.daemon.statusValue().runtime.mode == nil })
        #expect(try harness.serve { subscriber.lines.contains { $0.contains(#""cause":"expired""#) } })
        #expect(harness.daemon.statusValue().gestures.map(\.enabled) == [true, true])
        #expect(harness.daemon.dispatcher.mode == "none")
    }

    /// A reload keeps the changes whose names still exist and drops the others: the reply
    /// names them, status lists only what is left, and the kept change is still in force.
    @Test func aReloadKeepsChangesForNamesThatStillExist() throws {
        let harness = try Harness()
        let app = try harness.connect()
        app.send(#"{"cmd": "set", "gesture": "drag", "enabled": false}"#)
        app.send(#"{"cmd": "set", "gesture": "wake", "enabled": false}"#)
        #expect(try harness.serve { app.lines.count == 2 })
        // The new file renames the pan: `drag` is gone, `wake` stays.
        try write(
            to: harness.dir.file("none.toml"),
            "[screen]\nwidth = 1000\nheight = 600\n\n[gesture.wake]\ntype = \"tap\"\n\n[gesture.scroll]\ntype = \"pan\"\n")
        let admin = try harness.connect()
        admin.send(#"{"cmd": "reload"}"#)
        #expect(try harness.serve { admin.lines.count == 1 })
        #expect(try admin.json(0)["ok"]?["dropped"] == .array([.object([("gesture", .string("drag"))])]), "\(admin.lines)")
        let status = harness.daemon.statusValue()
        #expect(status.runtime.changes.map(\.name) == ["wake"])
        #expect(status.gestures.map(\.name) == ["wake", "scroll"])
        #expect(status.gestures.map(\.enabled) == [false, true])
    }

    /// Errors come back as the protocol's other errors, the connection stays.
    @Test func badRuntimeRequestsGetErrors() throws {
        let harness = try Harness()
        let app = try harness.connect()
        app.send(#"{"cmd": "set", "gesture": "nope", "enabled": false}"#)
        app.send(#"{"cmd": "mode", "mode": "loud"}"#)
        #expect(try harness.serve { app.lines.count == 2 })
        #expect(try app.json(0)["error"]?["code"] == .string("unknown-gesture"))
        #expect(try app.json(1)["error"]?["code"] == .string("unknown-mode"))
    }
}

/// Writes `text` to a new file at `path`.
private func write(to path: String, _ text: String) throws {
    guard let file = fopen(path, "w") else { throw SystemError("fopen", path) }
    defer { fclose(file) }
    guard fputs(text, file) >= 0 else { throw SystemError("fputs", path) }
}
