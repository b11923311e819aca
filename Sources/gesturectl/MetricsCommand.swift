import ArgumentParser
import GestureControl

/// `gesturectl metrics`: the daemon's counters and gauges in Prometheus' text format.
struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Print the daemon's metrics in Prometheus' text exposition format (text/plain; version=0.0.4).")

    @OptionGroup var connection: SocketOption

    func run() throws {
        let reply = try connection.connect().request(.metrics)
        guard let text = reply.stringValue else { throw ControlClientError.protocolViolation("metrics is not a string") }
        print(text, terminator: "")
    }
}
