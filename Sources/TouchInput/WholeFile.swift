/// Whole-file reads and writes for gesturectl's own readers and writers (libinput record
/// files, pictures), with the same `SystemError`s as the rest of TouchInput.
public enum WholeFile {
    public static func read(_ path: String) throws(SystemError) -> [UInt8] {
        try TextFile.readBytes(path)
    }

    /// Creates or truncates `path` (mode 0644 before the umask).
    public static func write(_ text: String, to path: String) throws(SystemError) {
        try TextFile.write(text, to: path)
    }
}
