import ArgumentParser
import GestureControl

#if canImport(Glibc)
import Glibc
#endif

/// `gesturectl monitor`: the live event stream, readable or as JSON lines.
struct MonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Print gesture events as they happen (until interrupted).")

    @OptionGroup var connection: SocketOption
    @Flag(name: .long, help: "Also print every state transition: [view/gesture] old -> new (reason).")
    var trace = false
    @Flag(name: .long, help: "Print the stream's JSON lines as they arrive (the schema of replay --json).")
    var json = false
    @Flag(
        name: .long,
        help: "Also print every contact as it goes down, moves and lifts: id, phase, position in screen px and mm, the view it hit.")
    var touches = false
    @Flag(
        name: .long,
        help:
            "Get a continuous gesture's changed events as its actions do: at most once per [daemon] frame_rate frame, the newest, with coalesced=N (how many it stands for)."
    )
    var coalesce = false

    func run() throws {
        // No read timeout: an idle kiosk sends nothing for hours.
        let client = try connection.connect(timeout: nil)
        var options: [(String, JSONValue)] = []
        if trace { options.append(("trace", .bool(true))) }
        if touches { options.append(("touches", .bool(true))) }
        if coalesce { options.append(("coalesce", .bool(true))) }
        _ = try client.request(.subscribe, options)
        while let bytes = try client.readLine() {
            let line = EventLine(line: bytes)
            if json {
                print(String(decoding: bytes, as: UTF8.self))
            } else if let line {
                print(MonitorText.render(line))
            }
            fflush(nil)  // all streams: a pipe to another tool sees each event at once
            // The daemon's last line: a stop, not a lost stream.
            if line?.kind == .stopping { return }
        }
        throw ControlClientError.streamEnded
    }
}
