import TestSupport
import Testing

@Suite struct AllocationTests {
    /// The probe runs 1,000 pan frames through the frame path (placement, stages, an engine with every recognizer type) under the
    /// malloc interposer and must count zero allocations (and one for its control allocation);
    /// then a mix of taps, presses and a pinch, also with none.
    @Test func a1000FramePanAllocatesNothing() throws {
        let dir = ChildProcess.buildDirectory
        let probe = dir + "/EngineAllocationProbe"
        let interposer = dir + "/libMallocInterposerSwift.so"
        let result = try ChildProcess.run(probe, environment: ["LD_PRELOAD": interposer])
        #expect(result.status == 0, "probe output: \(result.output)")
        let words = result.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
        var values: [String: Int] = [:]
        for (key, value) in zip(words, words.dropFirst()) { values[String(key)] = Int(value) }
        #expect(values["frames"] == 1002)
        #expect((values["control"] ?? 0) >= 1, "the interposer is not loaded: \(result.output)")
        #expect(values["mallocs"] == 0, "the hot path allocated: \(result.output)")
        // The pan waits for the swipe to fail (too slow after 10 mm), then began, a changed per frame, ended.
        #expect((values["events"] ?? 0) > 900, "the pan did not run: \(result.output)")
        // Taps, a double tap, a long press and a pinch with rotation: arbitration allocates nothing either.
        #expect(values["mixed_mallocs"] == 0, "arbitration allocated: \(result.output)")
        #expect((values["mixed_events"] ?? 0) > 200, "the mixed gestures did not run: \(result.output)")
        // Touch delivery deciding every contact's fate allocates nothing either.
        #expect(values["delivery_mallocs"] == 0, "touch delivery allocated: \(result.output)")
        #expect((values["delivery_changes"] ?? 0) > 20, "touch delivery decided nothing: \(result.output)")
        // The health stage with every rule on (holds, spots, noise, splits) allocates nothing.
        #expect(values["health_mallocs"] == 0, "the health stage allocated: \(result.output)")
        // ... ten fingers down and dragging together among them, on their own.
        #expect(values["health_ten_finger_mallocs"] == 0, "the health stage allocated at ten fingers: \(result.output)")
        #expect((values["health_contacts"] ?? 0) > 10_000, "the health stage passed nothing on: \(result.output)")
        #expect((values["health_filtered"] ?? 0) > 0, "the health stage filtered nothing: \(result.output)")
        #expect((values["health_notices"] ?? 0) > 0, "the health stage noticed nothing: \(result.output)")
        // Bezel touches dropped, outliers dropped and jumps split were among them.
        for rule in ["health_edge", "health_outlier", "health_jump"] {
            #expect((values[rule] ?? 0) > 0, "\(rule): \(result.output)")
        }
        // A runtime change (`set`) in place mid-drag, and the frames after it, allocate nothing.
        #expect(values["set_mallocs"] == 0, "a runtime change or the frames after it allocated: \(result.output)")
        #expect(values["set_cancelled"] == 1, "disabling the pan mid-drag did not cancel it: \(result.output)")
        // The pipeline's output stream, every output on and drained each frame, allocates nothing.
        #expect(values["stream_mallocs"] == 0, "the output stream allocated: \(result.output)")
        #expect((values["stream_outputs"] ?? 0) > 2000, "the output stream handed on nothing: \(result.output)")
        // ... with continuous gestures' `changed` paced at 60 Hz among them.
        #expect((values["stream_paced"] ?? 0) > 10, "nothing was paced: \(result.output)")
    }
}
