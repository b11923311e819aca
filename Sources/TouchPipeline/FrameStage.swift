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
/// 2. `health`: a panel's own faults filtered per device (`HealthStage`).
/// 3. `idle`: the touch that wakes an idle screen is consumed (`IdleStage`).
///
/// A stage added here goes into each method below, in its place in the order.
public struct FrameStages {
    public private(set) var palms = PalmRejection()
    public internal(set) var health = HealthStage()
    public internal(set) var idle = IdleStage()

    public init() {}

    @inline(__always) mutating func process(_ frame: inout ScreenFrame) {
        palms.process(&frame)
        health.process(&frame)
        idle.process(&frame)
    }

    mutating func detach(device: DeviceID) {
        palms.detach(device: device)
        health.detach(device: device)
        idle.detach(device: device)
    }

    /// The earliest deadline of any stage.
    var nextDeadline: Microseconds? {
        Self.earliest(Self.earliest(palms.nextDeadline, health.nextDeadline), idle.nextDeadline)
    }

    @inline(__always) private static func earliest(_ a: Microseconds?, _ b: Microseconds?) -> Microseconds? {
        switch (a, b) {
        case (let a?, let b?): min(a, b)
        case (let a, let b): a ?? b
        }
    }

    /// Fires the earliest stage deadline at `time`: the stage's frame goes through the
    /// stages after it. True when a frame comes out.
    mutating func expire(at time: Microseconds, into frame: inout ScreenFrame) -> Bool {
        if palms.nextDeadline == time { return palms.expire(at: time, into: &frame) && afterPalms(&frame) }
        if health.nextDeadline == time { return health.expire(at: time, into: &frame) && afterHealth(&frame) }
        return idle.expire(at: time, into: &frame)
    }

    /// A frame the palm stage put out goes through the stages after it.
    private mutating func afterPalms(_ frame: inout ScreenFrame) -> Bool {
        health.process(&frame)
        return afterHealth(&frame)
    }

    /// A frame the health stage put out goes through the idle stage.
    private mutating func afterHealth(_ frame: inout ScreenFrame) -> Bool {
        idle.process(&frame)
        return !frame.contacts.isEmpty
    }
}
