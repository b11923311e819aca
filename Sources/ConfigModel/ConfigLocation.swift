/// Where a key or a problem is written: a file of the config's list and a line and column
/// in it. Ordered by the file's place in the list (the main file first, then the drop-ins),
/// then by position: the order of views, gestures and diagnostics across files.
public struct ConfigLocation: Equatable, Comparable, Sendable, CustomStringConvertible {
    public var file: String
    /// The file's place in the config's list of files (0: the main file).
    public var fileIndex: Int
    public var position: SourcePosition

    public init(file: String, fileIndex: Int = 0, position: SourcePosition) {
        self.file = file
        self.fileIndex = fileIndex
        self.position = position
    }

    public static func < (a: ConfigLocation, b: ConfigLocation) -> Bool {
        (a.fileIndex, a.position.line, a.position.column) < (b.fileIndex, b.position.line, b.position.column)
    }

    /// `file:line:col`, as diagnostics begin.
    public var description: String { "\(file):\(position.line):\(position.column)" }
}
