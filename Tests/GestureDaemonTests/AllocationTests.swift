import TestSupport
import Testing

@Suite struct DaemonAllocationTests {
    /// The probe formats 1,200 event lines of every type, renders templates, publishes to two
    /// subscribers and sends datagram socket actions under the malloc interposer: none of it
    /// may allocate (the control allocation proves the interposer is loaded).
    @Test func perEventPathAllocatesNothing() throws {
        let dir = ChildProcess.buildDirectory
        let result = try ChildProcess.run(
            dir + "/DaemonAllocationProbe",
            environment: ["LD_PRELOAD": dir + "/libMallocInterposerSwift.so"])
        #expect(result.status == 0, "probe output: \(result.output)")
        let words = result.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
        var values: [String: Int] = [:]
        for (key, value) in zip(words, words.dropFirst()) { values[String(key)] = Int(value) }
        #expect(values["events"] == 1200)
        #expect((values["control"] ?? 0) >= 1, "the interposer is not loaded: \(result.output)")
        for key in ["json_mallocs", "template_mallocs", "publish_mallocs", "socket_mallocs"] {
            #expect(values[key] == 0, "\(key): \(result.output)")
        }
    }
}
