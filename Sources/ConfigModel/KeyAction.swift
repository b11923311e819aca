import GestureCore

/// A `keys` action: a chord of key codes sent through gestured's own keyboard.
public struct KeyAction: Equatable, Sendable {
    /// What a chord's keys do at the action's state.
    public enum Mode: Equatable, Sendable {
        /// Down, then up `delay` later (0: in the next frame, at once).
        case press(delay: Microseconds)
        /// Down at `began`, up when the gesture ends, is cancelled or fails (`hold = true`).
        case hold
        /// `on.changed`: the chord each time `measure` crosses a step up from the last step
        /// reached, `back` each time it crosses one down (`step = ...`, `back = "..."`).
        case step(StepMeasure, size: Double, back: [UInt16])
    }

    /// Pressed in order, released in reverse (`leftctrl+r`: Ctrl down, R down, R up, Ctrl up).
    public var chord: [UInt16]
    public var mode: Mode

    public init(chord: [UInt16], mode: Mode = .press(delay: 0)) {
        self.chord = chord
        self.mode = mode
    }

    /// Every code the action may send (the keyboard advertises these).
    public var codes: [UInt16] {
        if case .step(_, _, let back) = mode { return chord + back }
        return chord
    }

    /// The name of gestured's keyboard, fixed: compositors match it (`input
    /// "0:0:gestured_keyboard"` in sway).
    public static let keyboardName = "gestured keyboard"

    /// Where `keys` actions were run with wev focused (vm/guest/stacks.sh, stacks_keys), for
    /// `gesturectl check`.
    public static let compositorsRun = "cage 0.1.4 and sway 1.7 (Debian 12), cage 0.2.0, sway 1.10.1 and labwc 0.8.3 (Debian 13)"

    /// At most this many keys in one chord (docs/LIMITS.md): four modifiers and a key, with
    /// room; a longer one is a mistake, and the kernel keeps no more keys down per frame anyway.
    public static let maximumChord = 8
}

/// The value a step action counts steps of.
public enum StepMeasure: String, Equatable, Sendable {
    /// A pinch's scale (1 at began).
    case scale
    /// A pan's translation along x or y, px.
    case translationX = "x"
    case translationY = "y"
    /// A rotation's angle, radians.
    case rotation

    /// The measure's value in an event.
    public func value(of event: GestureEvent) -> Double {
        switch self {
        case .scale: event.scale - 1
        case .translationX: event.translationX
        case .translationY: event.translationY
        case .rotation: event.rotation
        }
    }
}

extension ActionSpec {
    /// The key codes a `keys` action sends (none for other kinds).
    public var keyCodes: [UInt16] {
        if case .keys(let keys) = kind { return keys.codes }
        return []
    }
}
