import TestSupport
import Testing

/// One grammar for the config across gesturectl: `VERB CONFIG ...` or `--config CONFIG`
/// wherever a config is read, `--socket` and `--config` before the verb too, and the
/// daemon's socket found from the config's `[daemon] socket`.
@Suite struct CLIFormTests {
    static let demo = TestConfig.goldensDirectory + "/../../../docs/examples/kiosk-demo.evemu"

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Result {
        try ChildProcess.run(Binary.gesturectl, arguments: arguments, environment: environment)
    }

    @Test func replayAndRenderTakeTheConfigEitherWay() throws {
        let positional = try run(["replay", TestConfig.shippedPath, Self.demo])
        let option = try run(["replay", "--config", TestConfig.shippedPath, Self.demo])
        #expect(positional.status == 0)
        #expect(positional.output.contains("map_zoom pinch began"))
        #expect(positional.output == option.output)
        #expect(try run(["replay", "--config", TestConfig.shippedPath, TestConfig.shippedPath, Self.demo]).status == 64)

        let drawn = try run(["render", TestConfig.shippedPath])
        #expect(drawn.status == 0)
        #expect(try run(["render", "--config", TestConfig.shippedPath]).output == drawn.output)
        #expect(try run(["--config", TestConfig.shippedPath, "render"]).output == drawn.output)
    }

    /// `[daemon] socket` of `--config` is where status looks, unless --socket or
    /// $GESTURED_SOCKET says otherwise.
    @Test func theConfigNamesTheSocket() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("k.toml")
        try writeText("[daemon]\nsocket = \"\(dir.file("k.sock"))\"\n[screen]\nwidth = 10\nheight = 10\n", to: config)
        let errors = dir.file("err")
        for arguments in [["status", "--config", config], ["--config", config, "status"]] {
            let result = try ChildProcess.run(
                "/bin/sh", arguments: ["-c", "exec '\(Binary.gesturectl)' \(arguments.joined(separator: " ")) 2> '\(errors)'"])
            #expect(result.status == 1)
            #expect(readText(errors)?.contains("no socket at \(dir.file("k.sock"))") == true, "\(arguments)")
        }
        let overridden = try ChildProcess.run(
            "/bin/sh",
            arguments: ["-c", "exec '\(Binary.gesturectl)' --socket '\(dir.file("x.sock"))' status --config '\(config)' 2> '\(errors)'"])
        #expect(overridden.status == 1)
        #expect(readText(errors)?.contains("no socket at \(dir.file("x.sock"))") == true)
    }

    /// A configuration manager's temporary file (`--as-dropin %s`) has no drop-in's name:
    /// without `--dropin-name` the check is a usage error that says what to add, and with
    /// it the file is checked (and named) as the drop-in it stands for.
    @Test func asDropInWithATemporaryNameRequiresTheDropInName() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.file("k.toml")
        try writeText("[screen]\nwidth = 10\nheight = 10\n", to: config)
        let candidate = dir.file("tmpk2j8x1")
        try writeText("[screen]\nwidth = -1\n", to: candidate)
        let errors = dir.file("err")
        func check(_ extra: String) throws -> Int32 {
            try ChildProcess.run(
                "/bin/sh",
                arguments: [
                    "-c", "exec '\(Binary.gesturectl)' check --config '\(config)' --as-dropin '\(candidate)' \(extra) 2> '\(errors)'",
                ]
            ).status
        }
        #expect(try check("") == 64)
        #expect(
            readText(errors)?.contains("name the drop-in it stands for with --dropin-name NAME.toml") == true, "\(readText(errors) ?? "")")
        #expect(try check("--dropin-name 50-site.toml") == 1)
        let reported = readText(errors) ?? ""
        #expect(reported.hasPrefix(dir.file("k.d/50-site.toml") + ":2:1: error: screen.width"), "\(reported)")
        #expect(!reported.contains("tmpk2j8x1"), "\(reported)")
    }
}
