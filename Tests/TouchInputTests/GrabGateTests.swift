import Testing

@testable import TouchInput

/// `GrabGate`: a panel switched to passthrough is grabbed only at a frame boundary with no
/// contact down, from the panel's own slot state (contacts gestured never saw go down
/// included), so the compositor sees every contact it saw go down also lift.
struct GrabGateTests {
    private func fed(_ gate: GrabGate, _ stream: Stream) -> GrabGate {
        var gate = gate
        for event in stream.events { gate.feed(event) }
        return gate
    }

    @Test func opensAtOnceWithNoContactDown() {
        let gate = GrabGate(trackingIDs: [-1, -1, -1, -1], touching: false)
        #expect(gate.open)
        #expect(gate.contactsDown == 0)
    }

    /// A finger down before gestured opened the panel (libevdev's slot state has it; the
    /// normalizer never saw it): the gate waits for its lift, in the slot the kernel last
    /// selected, which the lift does not name again.
    @Test func waitsForAContactDownBeforeItStarted() {
        var gate = GrabGate(trackingIDs: [-1, -1, 42, -1], slot: 2, touching: true)
        #expect(!gate.open)
        #expect(gate.contactsDown == 1)
        gate = fed(gate, Stream().x(100).y(50).report())
        #expect(!gate.open)
        gate = fed(gate, Stream().track(-1).touch(false).report())
        #expect(gate.open)
    }

    /// Two contacts, lifting one after the other, and a third that lands before the first
    /// lifts: open only once the last is up.
    @Test func waitsForEveryContact() {
        var gate = GrabGate(trackingIDs: [5, 6, -1, -1], slot: 1, touching: true)
        gate = fed(gate, Stream().slot(0).track(-1).slot(2).track(7).x(10).y(10).report())
        #expect(gate.contactsDown == 2)
        #expect(!gate.open)
        gate = fed(gate, Stream().slot(1).track(-1).report())
        #expect(!gate.open)
        gate = fed(gate, Stream().slot(2).track(-1).touch(false).report())
        #expect(gate.open)
    }

    /// Decided at frame boundaries only: the lift's events before its `SYN_REPORT` do not
    /// open it yet.
    @Test func opensOnlyAtTheSynReport() {
        var gate = GrabGate(trackingIDs: [3], touching: true)
        gate = fed(gate, Stream().track(-1).touch(false))
        #expect(gate.contactsDown == 0)
        #expect(!gate.open)
        gate = fed(gate, Stream().report())
        #expect(gate.open)
    }

    /// Devices without slots (single touch, protocol A): `BTN_TOUCH` says whether a finger is down.
    @Test func withoutSlotsBtnTouchDecides() {
        var gate = GrabGate(trackingIDs: [], touching: true)
        #expect(!gate.open)
        gate = fed(gate, Stream().absX(10).absY(10).report())
        #expect(!gate.open)
        gate = fed(gate, Stream().touch(false).report())
        #expect(gate.open)
        #expect(fed(gate, Stream().touch(true).absX(5).report()).contactsDown == 1)
    }

    /// A slot number outside the panel's range is ignored rather than trusted.
    @Test func outOfRangeSlotsAreIgnored() {
        var gate = GrabGate(trackingIDs: [-1, -1], touching: false)
        gate = fed(gate, Stream().slot(9).track(4).report())
        #expect(gate.open)
    }
}
