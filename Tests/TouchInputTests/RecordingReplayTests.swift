import GestureCore
import TestSupport
import Testing

@testable import TouchInput

/// Facts about every recording in ../shared/recordings with events, checked by hand against
/// SOURCES.md (frames = SYN_REPORTs, contacts = touch sequences, max simultaneous contacts,
/// duration from the first to the last event).
struct RecordingFact: Sendable, CustomTestStringConvertible {
    var file: String
    var desc: String? = nil
    var frames: Int
    var contacts: Int
    var maxTouches: Int
    /// Milliseconds, as SOURCES.md gives them (to 10 ms, not always rounded down: the
    /// EP0430M09 scroll lasts 754 ms and is listed as 0.76 s).
    var durationMilliseconds: Int64
    var testDescription: String { file }
}

let recordingFacts: [RecordingFact] = [
    .init(file: "atmel-maxtouch-1-finger-fast-taps.evemu", frames: 18, contacts: 9, maxTouches: 1, durationMilliseconds: 1930),
    .init(file: "atmel-maxtouch-1-finger-drag-up-down.evemu", frames: 150, contacts: 1, maxTouches: 1, durationMilliseconds: 2200),
    .init(file: "atmel-maxtouch-2-finger-tap.evemu", frames: 16, contacts: 2, maxTouches: 2, durationMilliseconds: 820),
    .init(file: "atmel-maxtouch-4-finger-drag-down.evemu", frames: 31, contacts: 4, maxTouches: 4, durationMilliseconds: 570),
    .init(file: "atmel-maxtouch-1-finger-long-drag-18s.evemu", frames: 1289, contacts: 1, maxTouches: 1, durationMilliseconds: 18460),
    .init(file: "ep0430m09-2-finger-scroll-down.evemu", frames: 98, contacts: 2, maxTouches: 2, durationMilliseconds: 760),
    .init(file: "ep0430m09-4-finger-drag-down.evemu", frames: 104, contacts: 4, maxTouches: 4, durationMilliseconds: 1170),
    .init(
        file: "dell-canvas-advanced-silicon-touch-2-4-5-finger.evemu", frames: 450, contacts: 12, maxTouches: 5, durationMilliseconds: 13870
    ),
    .init(
        file: "quanta-optical-1-finger-drags-and-tap.events", desc: "quanta-optical.desc", frames: 738, contacts: 9, maxTouches: 1,
        durationMilliseconds: 13890),
    .init(
        file: "ntrig-protocol-A-2-finger-touch-release.events", desc: "ntrig-protocol-A.desc", frames: 219, contacts: 2, maxTouches: 2,
        durationMilliseconds: 2990),
    .init(
        file: "nexus4-touch_dev-1-2-3-4-finger.events", desc: "nexus4-touch_dev.desc", frames: 577, contacts: 12, maxTouches: 4,
        durationMilliseconds: 7870),
    .init(file: "google-pixel-tablet-nvt-1-finger-swipe.evemu", frames: 26, contacts: 1, maxTouches: 1, durationMilliseconds: 210),
    .init(
        file: "hid-devices-elan-04f3-200a-drag-pinch-out-rotate-10finger.evemu", frames: 1050, contacts: 13, maxTouches: 10,
        durationMilliseconds: 14880),
    .init(
        file: "hid-devices-egalax-0eef-72fa-drag-pinch-in-rotate-4finger.evemu", frames: 1815, contacts: 15, maxTouches: 4,
        durationMilliseconds: 17670),
    .init(
        file: "hid-devices-stantum-1f87-0002-pinch-rotate-10finger.evemu", frames: 611, contacts: 20, maxTouches: 10,
        durationMilliseconds: 10380),
    .init(
        file: "hid-devices-atmel-03eb-8409-diagonal-drag-2finger-10finger.evemu", frames: 957, contacts: 13, maxTouches: 10,
        durationMilliseconds: 18020),
    .init(
        file: "hid-devices-ntrig-1b96-0c01-drag-2finger-10finger.evemu", frames: 611, contacts: 13, maxTouches: 10,
        durationMilliseconds: 39310),
    .init(
        file: "hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu", frames: 263, contacts: 947, maxTouches: 10,
        durationMilliseconds: 19860),
    .init(
        file: "hid-devices-pqlabs-1ef1-0001-tracking-id-churn.evemu", frames: 423, contacts: 32, maxTouches: 2, durationMilliseconds: 15230),
    .init(file: "hid-devices-lg-1fd2-0064-slow-pinch-2slot.evemu", frames: 1249, contacts: 6, maxTouches: 2, durationMilliseconds: 46280),
]

@Suite(.enabled(if: SharedRecordings.shouldRun, "needs ../shared/recordings"))
struct RecordingReplayTests {
    @Test(arguments: recordingFacts)
    func replaysWithTheRecordedFacts(_ fact: RecordingFact) throws {
        let recording = try EvemuRecording.read(
            path: SharedRecordings.path(fact.file),
            descPath: fact.desc.map(SharedRecordings.path))
        let normalizer = try #require(TouchNormalizer(device: DeviceID(1), info: recording.info))
        var ledger = ContactLedger()
        for event in recording.events where normalizer.feed(event) {
            ledger.record(normalizer.frame)
        }
        let reports = recording.events.count { $0.type == InputCodes.evSyn && $0.code == InputCodes.synReport }
        #expect(reports == fact.frames)
        #expect(ledger.contacts == fact.contacts)
        #expect(ledger.maxSimultaneous == fact.maxTouches)
        let duration = try #require(recording.events.last).time
        #expect(abs(duration / 1000 - fact.durationMilliseconds) < 10, "duration \(duration) µs")
        #expect(recording.events.first?.time == 0)
        #expect(ledger.violations.isEmpty, "\(ledger.violations.prefix(5))")
        // Every recording ends with all fingers lifted.
        #expect(ledger.live.isEmpty, "still live at the end: \(ledger.live)")
        #expect(normalizer.counters.outOfRangeSlots == 0)
        #expect(normalizer.counters.synDropped == 0)
    }

    /// Every file in the folder with events is covered by the table above.
    @Test func everyRecordingHasFacts() throws {
        let listed = Set(recordingFacts.map(\.file))
        let files = try directoryEntries(SharedRecordings.directory)
            .filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".events") }
        #expect(Set(files) == listed)
    }
}
