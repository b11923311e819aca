/// What `gesturectl status` shows: every gesture's state at one moment.
public struct EngineSnapshot: Equatable, Sendable {
    /// The engine's time, µs.
    public var time: Microseconds
    /// Contacts down on all devices.
    public var contacts: Int
    /// By gesture index.
    public var gestures: [GestureStatus]
    /// Contacts ignored since the engine started because `ContactTable.capacity` (64) were
    /// already tracked.
    public var droppedContacts: Int
    /// Phase changes the engine refused because its own rules forbid them: a bug in the
    /// engine, traced as `engine bug: illegal transition` (0 unless something is wrong).
    public var engineBugs: Int

    public init(time: Microseconds, contacts: Int, gestures: [GestureStatus], droppedContacts: Int = 0, engineBugs: Int = 0) {
        self.time = time
        self.contacts = contacts
        self.gestures = gestures
        self.droppedContacts = droppedContacts
        self.engineBugs = engineBugs
    }
}

/// One gesture's part of an `EngineSnapshot`.
public struct GestureStatus: Equatable, Sendable {
    public var state: GestureState
    /// Set while a recognition is held by a failure requirement: since when.
    public var pendingSince: Microseconds?
    /// Recognitions (discrete) or begins (continuous) since the engine started.
    public var recognitions: Int
    /// Contacts it holds now.
    public var contacts: Int

    public init(state: GestureState, pendingSince: Microseconds?, recognitions: Int, contacts: Int) {
        self.state = state
        self.pendingSince = pendingSince
        self.recognitions = recognitions
        self.contacts = contacts
    }
}
