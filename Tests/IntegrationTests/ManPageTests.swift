import GestureControl
import TestSupport
import Testing

@testable import GestureDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The man pages' sources (docs/man/*.md) name every verb and option the programs have:
/// gesturectl's as swift-argument-parser describes them (`--experimental-dump-help`),
/// gestured's from `DaemonCommandLine.table`. (Config keys: ConfigReferenceTests.)
@Suite struct ManPageTests {
    private static var manDirectory: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/IntegrationTests/ManPageTests.swift
        return parts.joined(separator: "/") + "/docs/man"
    }

    /// A page's Markdown without the backslashes that keep `--` from becoming a dash.
    private static func page(_ name: String) throws -> String {
        let text = try #require(readText(manDirectory + "/" + name), "cannot read docs/man/\(name)")
        return text.replacing("\\", with: "")
    }

    /// The definition-list entry of `term`: its line (the one followed by the definition's
    /// `:`), up to the next entry or heading.
    private static func entry(_ term: String, in page: String) -> String? {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.indices.dropLast().first(where: { lines[$0].hasPrefix(term) && lines[$0 + 1].hasPrefix(":") })
        else { return nil }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("**") || $0.hasPrefix("#") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// `--long` and `-s` spellings of an argument from the dump (positionals have none).
    private static func spellings(_ argument: JSONValue) -> [String] {
        (argument["names"]?.arrayValue ?? []).compactMap { name in
            guard let text = name["name"]?.stringValue else { return nil }
            return name["kind"]?.stringValue == "short" ? "-" + text : "--" + text
        }
    }

    @Test func gesturectlPageHasEveryVerbAndOption() throws {
        let run = try ChildProcess.run(Binary.gesturectl, arguments: ["--experimental-dump-help"])
        #expect(run.status == 0)
        let tool = try JSONParser.parse(Array(run.output.utf8))
        let subcommands = try #require(tool["command"]?["subcommands"]?.arrayValue)
        #expect(subcommands.count >= 8)
        let page = try Self.page("gesturectl.1.md")
        for command in subcommands {
            let name = try #require(command["commandName"]?.stringValue)
            if name == "help" {
                #expect(page.contains("**help**"))
                continue
            }
            guard let entry = Self.entry("**\(name)**", in: page) else {
                Issue.record("gesturectl.1: no entry for the verb \(name)")
                continue
            }
            for argument in command["arguments"]?.arrayValue ?? [] where argument["shouldDisplay"]?.boolValue != false {
                for spelling in Self.spellings(argument) where !["--help", "-h", "--version"].contains(spelling) {
                    #expect(entry.contains("**\(spelling)**"), "gesturectl.1: \(name) does not name \(spelling)")
                }
            }
        }
        for spelling in ["--help", "-h", "--version", "--socket"] {
            #expect(page.contains("**\(spelling)**"), "gesturectl.1 does not name \(spelling)")
        }
    }

    @Test func gesturedPageHasEveryOption() throws {
        let page = try Self.page("gestured.8.md")
        let names = DaemonCommandLine.table.map { "--" + $0.name } + ["--version", "--help", "-h"]
        #expect(names.count >= 10)
        for name in names {
            #expect(page.contains("**\(name)**"), "gestured.8 does not name \(name)")
        }
    }

    @Test func gesturedWebPageHasEveryOption() throws {
        let run = try ChildProcess.run(Binary.gesturedWeb, arguments: ["--experimental-dump-help"])
        #expect(run.status == 0)
        let arguments = try #require(try JSONParser.parse(Array(run.output.utf8))["command"]?["arguments"]?.arrayValue)
        let page = try Self.page("gestured-web.8.md")
        let spellings = arguments.flatMap(Self.spellings).filter { !["--help", "-h", "--version"].contains($0) }
        #expect(spellings.count >= 7)
        for spelling in spellings {
            #expect(Self.entry("**\(spelling)**", in: page) != nil, "gestured-web.8 has no entry for \(spelling)")
        }
    }

    /// Both programs say the package's version, debian/changelog's first line.
    @Test func versionIsThePackageVersion() throws {
        let changelog = try #require(readText(Self.manDirectory + "/../../debian/changelog"))
        let firstLine = changelog.prefix { $0 != "\n" }
        // In two steps: Swift 6.0.3's #require cannot expand an optional chain ending in a property.
        let parenthesized = try #require(firstLine.split(separator: "(").dropFirst().first)
        let version = try #require(parenthesized.split(separator: ")").first)
        #expect(GesturedVersion.current == String(version))
        for binary in [Binary.gestured, Binary.gesturectl] {
            let run = try ChildProcess.run(binary, arguments: ["--version"])
            #expect(run.status == 0)
            #expect(run.output == "\(version)\n", "\(binary) --version")
        }
    }
}
