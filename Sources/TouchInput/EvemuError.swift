/// A recording that cannot be read: where (file:line), what is wrong, and the offending text.
public struct EvemuError: Error, Equatable, CustomStringConvertible {
    public var path: String
    /// 1-based; 0 when the problem concerns the whole file.
    public var line: Int
    public var problem: String
    /// The offending line, as written.
    public var text: String

    public init(path: String, line: Int, problem: String, text: String = "") {
        self.path = path
        self.line = line
        self.problem = problem
        self.text = text
    }

    public var description: String {
        let location = line > 0 ? "\(path):\(line)" : path
        return text.isEmpty ? "\(location): \(problem)" : "\(location): \(problem)\n  \(text)"
    }
}
