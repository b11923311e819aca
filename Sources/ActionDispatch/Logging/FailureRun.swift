/// One log line per run of like failures instead of one per failure: the first is logged as
/// it happens, and when the run ends (the next success) how many there were. A client that
/// fails a thousand times in a row costs the journal two lines, not a thousand.
public struct FailureRun {
    /// Failures in the current run.
    public private(set) var count = 0

    public init() {}

    /// Counts one failure; true when it starts a run (log it then).
    public mutating func fail() -> Bool {
        count += 1
        return count == 1
    }

    /// Ends the run; returns how many failures it had when that is more than one (log
    /// them), nil otherwise.
    public mutating func end() -> Int? {
        defer { count = 0 }
        return count > 1 ? count : nil
    }
}
