import GestureConfig
import GestureDaemon
import Logging
import Testing

@Suite struct DaemonCommandLineTests {
    private func line(_ arguments: [String]) throws -> DaemonCommandLine {
        guard case .run(let line) = try DaemonCommandLine.parse(arguments) else {
            Issue.record("\(arguments) is not a run request")
            return DaemonCommandLine()
        }
        return line
    }

    @Test func defaultsRunTheDefaultConfig() throws {
        let parsed = try line([])
        #expect(parsed == DaemonCommandLine())
        #expect(parsed.options.configPath == "/etc/gestured/gestures.toml")
        #expect(parsed.options.socketPath == nil)
        #expect(parsed.options.replay == nil)
    }

    @Test func everyOptionReachesTheDaemonsOptions() throws {
        let parsed = try line([
            "--config", "a.toml", "--socket=/tmp/s.sock", "--log-level", "debug",
            "--replay", "r.evemu", "--desc", "d.desc", "--replay-speed", "2.5",
        ])
        #expect(parsed.logLevel == .debug)
        let options = parsed.options
        #expect(options.configPath == "a.toml")
        #expect(options.socketPath == "/tmp/s.sock")
        #expect(options.replay?.path == "r.evemu")
        #expect(options.replay?.descPath == "d.desc")
        #expect(options.replay?.speed == 2.5)
    }

    @Test func aStreamNeedsItsDescription() throws {
        let options = try line(["--stream", "-", "--desc", "kiosk.desc"]).options
        #expect(options.stream?.path == "-")
        #expect(options.stream?.descPath == "kiosk.desc")
        #expect(options.replay == nil)
    }

    @Test func theLastOfARepeatedOptionWins() throws {
        #expect(try line(["--config", "a.toml", "--config=b.toml"]).configPath == "b.toml")
    }

    @Test func helpVersionAndCheckAnswerInsteadOfRunning() throws {
        #expect(try DaemonCommandLine.parse(["--config", "a.toml", "--help"]) == .help)
        #expect(try DaemonCommandLine.parse(["-h"]) == .help)
        #expect(try DaemonCommandLine.parse(["--version"]) == .version)
        #expect(try DaemonCommandLine.parse(["--check", "x.toml"]) == .check(ConfigTree(mainFile: "x.toml")))
        for name in ["config", "socket", "log-level", "check", "replay", "stream", "desc", "replay-speed", "version", "help"] {
            #expect(DaemonCommandLine.help.contains("--\(name)"), "help does not list --\(name)")
        }
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["config.toml"], "unexpected argument 'config.toml'"),
        (["--config"], "--config needs a value (file)"),
        (["--log-level", "loud"], "unknown log level 'loud'"),
        (["--replay", "r.evemu", "--replay-speed", "0"], "--replay-speed must be a positive number, not '0'"),
        (["--replay-speed=fast"], "--replay-speed must be a positive number, not 'fast'"),
        (["--desc", "d.desc"], "--desc describes the device of a --replay recording or a --stream; pass one of them too"),
        (["--stream", "-"], "--stream needs the device's description: --desc FILE"),
        (["--stream", "-", "--desc", "d.desc", "--replay", "r.evemu"], "--replay and --stream are two inputs; pass one"),
    ])
    func badCommandLinesSayWhatIsWrong(arguments: [String], message: String) {
        #expect {
            try DaemonCommandLine.parse(arguments)
        } throws: { error in
            (error as? UsageError)?.description.contains(message) == true
        }
    }
}
