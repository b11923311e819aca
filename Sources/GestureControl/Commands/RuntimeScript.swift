import GestureCore

/// A `gesturectl replay --script` file: timed runtime commands, one JSON object per line,
/// `{"t": 1.5, "cmd": "set", "gesture": "map_pan", "enabled": false}` (`t`: seconds from the
/// recording's first event, as the replay JSON counts; the other members as the control
/// socket takes them). Times never go back; empty lines are skipped.
public struct RuntimeScript: Sendable {
    /// The most lines a script has (docs/LIMITS.md).
    public static let maximumLines = 10_000

    public struct Line: Sendable {
        /// Seconds from the recording's first event, in µs.
        public var offset: Microseconds
        public var command: RuntimeCommand
        /// Its line number, for messages.
        public var number: Int
    }

    public private(set) var lines: [Line] = []

    /// Parses `text`; the error names `file:line` and why.
    public init(text: String, file: String) throws(RuntimeScriptError) {
        var previous: Microseconds = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            func fail(_ message: String) -> RuntimeScriptError { RuntimeScriptError(description: "\(file):\(number): \(message)") }
            guard !raw.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            guard lines.count < Self.maximumLines else { throw fail("more than \(Self.maximumLines) commands (the limit)") }
            let value: JSONValue
            do { value = try JSONParser.parse(String(raw)) } catch { throw fail("not JSON: \(error)") }
            guard let seconds = value["t"]?.doubleValue, seconds >= 0, seconds <= 86_400 else {
                throw fail(#"expected "t": seconds from the recording's first event (0 to 86400)"#)
            }
            let offset = Microseconds((seconds * 1_000_000).rounded())
            guard offset >= previous else { throw fail("t \(seconds) is before the line above: times never go back") }
            previous = offset
            guard let name = value["cmd"]?.stringValue, let known = ControlCommand(rawValue: name), ControlCommand.runtime.contains(known)
            else { throw fail(#"expected "cmd": one of "# + ControlCommand.runtime.map(\.rawValue).joined(separator: ", ")) }
            let command: RuntimeCommand
            do { command = try RuntimeCommand(known, request: value, ignoring: ["t"]) } catch {
                throw fail("\(error.code): \(error.message)")
            }
            lines.append(Line(offset: offset, command: command, number: number))
        }
    }
}

/// A script that cannot be read, with `file:line`.
public struct RuntimeScriptError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
