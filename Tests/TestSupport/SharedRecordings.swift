// Locates ../shared/recordings (beside the project's root) for tests that read real
// touchscreen recordings. Outside CI a clone without it skips those tests and says so;
// under CI=true its absence fails them.

#if canImport(Glibc)
import Glibc
#endif

public enum SharedRecordings {
    /// `<package root>/../shared/recordings`.
    public static let directory = packageRoot + "/../shared/recordings"

    /// True when the folder exists.
    public static var isPresent: Bool { access(directory, R_OK) == 0 }

    /// True under CI (`CI=true`), where a missing folder must fail, not skip.
    public static var isRequired: Bool {
        guard let ci = getenv("CI") else { return false }
        return String(cString: ci) == "true"
    }

    /// Condition for `.enabled(if:)`: run when present, and always under CI (so a missing
    /// folder fails there). Prints why when it skips.
    public static var shouldRun: Bool {
        if isPresent || isRequired { return true }
        print("note: \(directory) is absent: skipping tests that need real recordings (CI=true makes this a failure)")
        return false
    }

    /// The full path of one recording.
    public static func path(_ name: String) -> String { directory + "/" + name }
}
