import GestureCore

/// One resolved parameter of a gesture as the config would write it, for pictures and
/// reports that show a gesture's settings without the TOML at hand.
public struct ParameterValue: Equatable, Sendable {
    /// The config key (`taps`, `min_distance`, ...).
    public var key: String
    /// The value in config syntax (`2`, `15mm`, `["up"]`).
    public var value: String
    /// True when the value is the type's default.
    public var isDefault: Bool
}

extension GestureSpec {
    /// Every parameter of this gesture's type, in `gesturectl check` order.
    public var parameterValues: [ParameterValue] {
        parameters.configurable.settings.map { ParameterValue(key: $0.key, value: $0.value, isDefault: $0.isDefault) }
    }
}
