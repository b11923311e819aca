import GestureCore

extension DeviceUnitsWarning {
    /// As the daemon logs it and `gesturectl replay` prints it, naming the config key that fixes it.
    public var message: String {
        "device '\(name)' (\(device)): no plausible resolution (x \(x.minimum)...\(x.maximum) at \(x.resolution)/mm, "
            + "y \(y.minimum)...\(y.maximum) at \(y.resolution)/mm) and no size_mm: distances use 1 pt = 1 px; "
            + "set size_mm in its [[device]] entry"
    }
}
