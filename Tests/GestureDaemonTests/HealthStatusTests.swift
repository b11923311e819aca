import GestureControl
import GestureCore
import Testing

/// The status model names the health stage's rules without importing the engine: the two
/// lists must stay one.
@Suite struct HealthStatusTests {
    @Test func statusNamesEveryHealthRuleInItsOrder() {
        #expect(DeviceMetrics.healthRules == HealthRule.allCases.map(\.description))
    }

    @Test func statusNamesEveryHealthState() {
        #expect(DeviceMetrics.healthStates == HealthState.allCases.map(\.description))
    }
}
