import LinuxSystem
import Testing

@testable import GestureControl

/// The alert rules a fleet installs (docs/examples/gestured.rules.yml): valid for
/// Prometheus, each alert unit-tested both ways by Tests/Monitoring/gestured.rules.test.yml,
/// and written only against series the model exports.
@Suite struct AlertRulesTests {
    static let rulesPath = StatusDocTests.docs + "examples/gestured.rules.yml"
    static let testsPath = StatusDocTests.root + "Tests/Monitoring/gestured.rules.test.yml"

    static func read(_ path: String) throws -> String {
        String(decoding: try WholeFile.read(path, maximumSize: 1 << 20), as: UTF8.self)
    }

    /// Each alert's name and its rule's text.
    static func alerts() throws -> [(name: String, rule: Substring)] {
        try read(rulesPath).split(separator: "- alert: ").dropFirst().map { rule in
            (String(rule.prefix { !$0.isWhitespace }), rule)
        }
    }

    @Test func promtoolChecksAndUnitTestsTheRules() throws {
        guard let promtool = Promtool.path() else { return }
        let check = try Promtool.run(promtool, "check rules '\(Self.rulesPath)'")
        #expect(check.status == 0, "promtool check rules: \(check.output)")
        let test = try Promtool.run(promtool, "test rules '\(Self.testsPath)'")
        #expect(test.status == 0, "promtool test rules: \(test.output)")
        #expect(test.output.contains("SUCCESS"), "\(test.output)")
    }

    /// Every alert has a test where it fires and one where it stays quiet, and a severity.
    @Test func everyAlertIsTestedBothWaysAndHasASeverity() throws {
        let alerts = try Self.alerts()
        #expect(alerts.count >= 9)
        var fires: Set<String> = []
        var quiet: Set<String> = []
        let lines = try Self.read(Self.testsPath).split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) }
        for (i, line) in lines.enumerated() where line.hasPrefix("alertname: ") {
            let name = String(line.dropFirst("alertname: ".count))
            guard i + 1 < lines.count else { continue }
            if lines[i + 1] == "exp_alerts: []" { quiet.insert(name) } else if lines[i + 1] == "exp_alerts:" { fires.insert(name) }
        }
        for (name, rule) in alerts {
            #expect(fires.contains(name), "no test where \(name) fires")
            #expect(quiet.contains(name), "no test where \(name) stays quiet")
            #expect(rule.contains("severity: critical") || rule.contains("severity: warning"), "\(name) has no severity")
        }
        #expect(fires.union(quiet).isSubset(of: Set(alerts.map(\.name))), "tests name an alert the rules do not have")
    }

    /// The rules and their tests name only series gestured exports (a renamed metric
    /// breaks them here, not silently in a fleet).
    @Test func rulesNameOnlyExportedSeries() throws {
        let exported = Set(MetricsText.samples(fullStatus()).map { $0.family.exposedName + $0.suffix })
        for path in [Self.rulesPath, Self.testsPath] {
            for word in StatusDocTests.words(in: try Self.read(path)) where word.hasPrefix("gestured_") && word != "gestured_" {
                #expect(exported.contains(word), "\(path) names \(word), which gestured does not export")
            }
        }
    }
}
