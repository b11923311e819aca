extension String {
    /// Every occurrence of `target` replaced: Foundation's name for the standard library's
    /// `replacing(_:with:)`, so tests edit fixture text without linking Foundation.
    public func replacingOccurrences(of target: String, with replacement: String) -> String {
        replacing(target, with: replacement)
    }
}
