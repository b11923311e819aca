import GestureControl
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The docs' examples, run as a reader would run them: every TOML block of the README and
/// docs/ passes `gesturectl check` as a drop-in beside the shipped config; every `gesturectl`
/// line of their shell blocks, of the man pages' EXAMPLES and of the `--help` texts parses;
/// the control requests of their JSON blocks and the `--help` texts' `set` examples are
/// taken by a daemon running the shipped config with the docs' modes.
@Suite struct DocExampleTests {
    /// A fenced block: its language, its text (without the fence's indentation) and where.
    struct Block {
        var language: String
        var text: String
        var place: String
    }

    /// The Markdown files a reader is sent to: the README, docs/ (the man pages' sources
    /// too), vm/README.md.
    static func markdownFiles() throws -> [String] {
        try ["README.md", "vm/README.md"] + files(under: packageRoot + "/docs", endingIn: ".md").map { "docs/" + $0 }
    }

    /// The fenced blocks of every Markdown file, in order.
    static func blocks() throws -> [Block] {
        var found: [Block] = []
        for file in try markdownFiles() {
            let text = try #require(readText(packageRoot + "/" + file), "cannot read \(file)")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            var index = 0
            while index < lines.count {
                let line = lines[index]
                let indent = line.prefix { $0 == " " }.count
                let fence = line.dropFirst(indent)
                index += 1
                guard fence.hasPrefix("```") else { continue }
                let start = index
                while index < lines.count && !lines[index].dropFirst(indent).hasPrefix("```") { index += 1 }
                let body = lines[start..<min(index, lines.count)].map { String($0.dropFirst(min(indent, $0.count))) }
                found.append(
                    Block(language: String(fence.dropFirst(3)), text: body.joined(separator: "\n") + "\n", place: "\(file):\(start)"))
                index += 1
            }
        }
        return found
    }

    /// The shipped config in `dir` as `gestures.toml`, with `dropIns` (name, text) in its
    /// `gestures.d`; its path.
    static func shippedConfig(in dir: TemporaryDirectory, dropIns: [(String, String)]) throws -> String {
        let config = dir.file("gestures.toml")
        try writeText(try #require(readText(TestConfig.shippedPath)), to: config)
        try #require(mkdir(dir.file("gestures.d"), 0o755) == 0 || errno == EEXIST)
        for (name, text) in dropIns { try writeText(text, to: dir.file("gestures.d/" + name)) }
        return config
    }

    @Test func everyTOMLBlockChecksBesideTheShippedConfig() throws {
        let examples = try Self.blocks().filter { $0.language == "toml" }
        #expect(examples.count >= 5)
        for example in examples {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let config = try Self.shippedConfig(in: dir, dropIns: [("50-example.toml", example.text)])
            let run = try runTool(Binary.gesturectl, ["check", "--config", config], dir: dir)
            #expect(run.status == 0, "\(example.place): gesturectl check refuses it:\n\(run.stdout)\(run.stderr)")
        }
    }

    /// The command lines of the shell blocks (`gesturectl ...` or `swift run gesturectl ...`,
    /// without a trailing comment or what a shell runs after them), the man pages' EXAMPLES,
    /// and the `Examples:` of the `--help` texts, as argument lists after `gesturectl`.
    static func commandLines() throws -> [(place: String, words: [String])] {
        var lines: [(String, Substring)] = []
        for block in try blocks() where block.language == "sh" {
            lines += block.text.split(separator: "\n").map { (block.place, $0) }
        }
        for page in ["gesturectl.1.md", "gestured.8.md"] {
            let text = try #require(readText(packageRoot + "/docs/man/" + page)).replacing("\\", with: "")
            guard let section = text.split(separator: "# EXAMPLES").dropFirst().first else { continue }
            lines += section.split(separator: "\n").map { ("docs/man/" + page, $0.drop { $0 == " " }) }
        }
        for (command, example) in try helpExamples() { lines.append(("gesturectl \(command) --help", Substring("gesturectl " + example))) }
        return lines.compactMap { place, line in
            let uncommented = line.firstRange(of: " #").map { line[..<$0.lowerBound] } ?? line
            let words = uncommented.prefix { !"&|".contains($0) }.split(separator: " ").map(String.init)
            let start = words.starts(with: ["swift", "run", "gesturectl"]) ? 3 : words.first == "gesturectl" ? 1 : nil
            return start.map { (place, Array(words[$0...])) }
        }
    }

    /// Each subcommand's `--help` examples: the `;`-separated commands after "Examples:" (or
    /// "Example:") in its discussion, as swift-argument-parser describes it.
    static func helpExamples() throws -> [(command: String, example: String)] {
        let run = try ChildProcess.run(Binary.gesturectl, arguments: ["--experimental-dump-help"])
        let tool = try JSONParser.parse(Array(run.output.utf8))
        var found: [(String, String)] = []
        for command in try #require(tool["command"]?["subcommands"]?.arrayValue) {
            let name = command["commandName"]?.stringValue ?? "?"
            guard let discussion = command["discussion"]?.stringValue,
                let range = discussion.firstRange(of: "Examples: ") ?? discussion.firstRange(of: "Example: ")
            else { continue }
            let rest = discussion[range.upperBound...]
            let sentence = rest.firstRange(of: ". ").map { rest[..<$0.lowerBound] } ?? rest
            found += sentence.split(separator: ";").map { (name, String($0.drop { $0 == " " })) }
        }
        return found
    }

    /// Run with nothing to talk to (no daemon, no such files), each fails at run time (exit
    /// 1) or succeeds, and none with a usage error (64), as `gesturectl --socket /tmp/g.sock
    /// monitor` once did.
    @Test func everyCommandLineParses() throws {
        let lines = try Self.commandLines()
        #expect(lines.contains { $0.words == ["--socket", "/tmp/g.sock", "monitor"] })
        #expect(lines.contains { $0.words.starts(with: ["set", "gesture"]) })
        #expect(lines.count >= 10)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (place, words) in lines {
            let run = try ChildProcess.run(
                "/usr/bin/timeout",
                arguments: ["10", Binary.gesturectl] + words.map { $0.replacing("/tmp/g.sock", with: dir.file("g.sock")) },
                environment: ["GESTURED_SOCKET": dir.file("none.sock")])
            #expect(run.status != 64 && run.status != 124, "\(place): gesturectl \(words.joined(separator: " ")): exit \(run.status)")
        }
    }

    /// The `make` lines of the shell blocks name rules of the Makefile or mk/*.mk, and the
    /// variables they set (`VM_ONLY=...`) are read there. (The rules themselves run in
    /// `make test` or are the expensive tiers it leaves out: they are not run here.)
    @Test func everyMakeLineNamesARuleAndItsVariables() throws {
        let makeFiles = try ["Makefile"] + files(under: packageRoot + "/mk", endingIn: ".mk").map { "mk/" + $0 }
        let text = try makeFiles.map { try #require(readText(packageRoot + "/" + $0)) }.joined(separator: "\n")
        // The make files without their comments; rule heads: the names before a `:` at the
        // start of a line (not `:=`).
        let code = text.split(separator: "\n").filter { !$0.drop { $0 == " " }.hasPrefix("#") }.joined(separator: "\n")
        let rules = Set(
            code.split(separator: "\n").filter { !$0.hasPrefix("\t") && !$0.contains(":=") }.flatMap { line in
                line.firstIndex(of: ":").map { line[..<$0].split(separator: " ").map(String.init) } ?? []
            })
        var lines = 0
        for block in try Self.blocks() where block.language == "sh" {
            for line in block.text.split(separator: "\n") {
                let uncommented = line.firstRange(of: " #").map { line[..<$0.lowerBound] } ?? line
                let words = uncommented.split(separator: " ").map(String.init)
                guard let make = words.firstIndex(of: "make") else { continue }
                lines += 1
                for word in words[(make + 1)...] {
                    if let equals = word.firstIndex(of: "=") {
                        let variable = String(word[..<equals])
                        let read = code.contains(variable)
                        #expect(read, "\(block.place): \(line): no make file reads \(variable)")
                    } else if !word.hasPrefix("-") {
                        let known = rules.contains(word)
                        #expect(known, "\(block.place): \(line): no rule \(word)")
                    }
                }
            }
        }
        #expect(lines >= 20)
    }

    /// The control requests of the JSON blocks (one object a line with a `cmd`), but
    /// `subscribe`, which streams.
    static func requests() throws -> [(place: String, line: String)] {
        try blocks().filter { $0.language == "json" }.flatMap { block in
            block.text.split(separator: "\n").map(String.init).filter { line in
                let command = (try? JSONParser.parse(line))?["cmd"]?.stringValue
                return command != nil && command != "subscribe"
            }.map { (block.place, $0) }
        }
    }

    /// A daemon on the shipped config with the docs' `[mode.NAME]` blocks as a drop-in takes
    /// every request of the docs and every `set` of `gesturectl set --help`.
    @Test func theDaemonTakesEveryRequestOfTheDocs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let modes = try Self.blocks().filter { $0.language == "toml" && $0.text.hasPrefix("[mode.") }
        #expect(!modes.isEmpty)
        let config = try Self.shippedConfig(in: dir, dropIns: [("50-modes.toml", modes.map(\.text).joined(separator: "\n"))])
        let daemon = try GesturedProcess(config: config, dir: dir, replay: packageRoot + "/docs/examples/tap-double-tap.evemu")
        defer { try? daemon.stop() }
        let requests = try Self.requests()
        #expect(requests.contains { $0.line.contains(#""gesture": "map_zoom""#) })
        for (place, line) in requests {
            let client = try daemon.client()
            try client.sendRaw(Array((line + "\n").utf8))
            let reply = try JSONParser.parse(try #require(try client.readLine(), "\(place): no reply to \(line)"))
            #expect(reply["error"] == nil, "\(place): \(line): \(reply.text)")
        }
        let sets = try Self.helpExamples().filter { $0.command == "set" }
        #expect(!sets.isEmpty)
        for (_, example) in sets {
            let words = example.split(separator: " ").dropFirst().map(String.init)
            let run = try runTool(Binary.gesturectl, ["set"] + words + ["--keep", "--socket", daemon.socket], dir: dir)
            #expect(run.status == 0, "gesturectl \(example) --keep: \(run.stdout)\(run.stderr)")
        }
    }
}
