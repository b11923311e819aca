import GestureCore

/// One step between the pipeline's boundary and the engine. It sees every frame on the
/// screen (px and mm), in time order, and may change it in place: drop contacts, or end
/// one as cancelled (which the engine then never sees again: the stage drops its later
/// frames). A stage that needs time asks for it through `nextDeadline`; the pipeline calls
/// `expire` at that time, and what it returns goes on through the later stages.
///
/// Stages run in the fixed order of `FrameStages`, each a concrete member there, so a frame
/// costs no dynamic dispatch and no allocation.
public protocol FrameStage {
    /// One frame, changed in place (keep no reference to its `contacts`).
    mutating func process(_ frame: inout ScreenFrame)
    /// A device went: forget its contacts (the normalizer has cancelled them already).
    mutating func detach(device: DeviceID)
    /// The earliest time the stage has work at, or nil.
    var nextDeadline: Microseconds? { get }
    /// Its work due at `time`: fills `frame` (its device, time and contacts) with what it
    /// ends then and returns true when that frame goes on, false when nothing does.
    mutating func expire(at time: Microseconds, into frame: inout ScreenFrame) -> Bool
}

/// The stages between the boundary and the engine, in order: every frame of every input
/// (live, replayed, a test's) goes through each of them.
///
/// 1. `palms`: a palm is a cancelled touch (`PalmRejection`).
///
/// A stage added here goes into each method below, in its place in the order.
public struct FrameStages {
    public private(set) var palms = PalmRejection()

    public init() {}

    @inline(__always) mutating func process(_ frame: inout ScreenFrame) {
        palms.process(&frame)
    }

    mutating func detach(device: DeviceID) {
        palms.detach(device: device)
    }

    /// The earliest deadline of any stage.
    var nextDeadline: Microseconds? { palms.nextDeadline }

    /// Fires the earliest stage deadline at `time`: the stage's frame goes through the
    /// stages after it. True when a frame comes out.
    mutating func expire(at time: Microseconds, into frame: inout ScreenFrame) -> Bool {
        palms.nextDeadline == time && palms.expire(at: time, into: &frame)
    }
}
