import GestureConfig
import Testing

/// Helpers shared by the config tests: parse a text and get its diagnostics.
enum Fixture {
    /// The smallest valid head of a file: a screen.
    static let screen = "[screen]\nwidth = 800\nheight = 600\n"

    /// The repository's root, found from this file's location.
    static let repositoryRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/GestureConfigTests/Fixtures.swift
        return parts.joined(separator: "/")
    }()

    /// The repository's `config/gestures.toml`.
    static let shippedConfigPath = repositoryRoot + "/config/gestures.toml"

    /// The kiosk quick start's config (docs/KIOSK.md).
    static let kioskGuideConfigPath = repositoryRoot + "/docs/kiosk/gestures.toml"

    /// The diagnostics of an invalid file; records a test failure when it is valid.
    static func diagnostics(
        _ text: String, file: String = "test.toml",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Diagnostic] {
        do {
            _ = try ConfigLoader.parse(text: text, file: file)
            Issue.record("expected the config to be refused", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// The printed form of each diagnostic.
    static func messages(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        diagnostics(text, sourceLocation: sourceLocation).map(\.description)
    }
}
