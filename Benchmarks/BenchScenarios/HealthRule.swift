import GestureCore

/// One touch-health rule on beside the defaults (the stuck-contact release), for the
/// `rule-` rows: what that rule alone adds to a frame, against the rows with the defaults.
/// Its value is `TouchHealthSettings.everyRule`'s.
public enum HealthRule: String, Sendable {
    /// Bezel touches held until they move (`edge_hold`).
    case edgeHold = "edge-hold"
    /// One-frame outliers dropped: the jump rule, which holds a contact's frame after a jump
    /// (`jump`; its dropped reports are counted as `outlier`).
    case outlier

    var settings: TouchHealthSettings {
        var settings = TouchHealthSettings()
        switch self {
        case .edgeHold: settings.edgeHold = TouchHealthSettings.everyRule.edgeHold
        case .outlier: settings.jump = TouchHealthSettings.everyRule.jump
        }
        return settings
    }
}
