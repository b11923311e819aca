import GestureCore

/// Typed access to a spec's parameters for tests (`$0.tap.taps = 2`). Reaching for another
/// type's parameters than the spec's traps, so a test cannot set a value its gesture ignores.
extension GestureSpec {
    public var tap: TapParameters {
        get { own { if case .tap(let p) = $0 { p } else { nil } } }
        set { replace(.tap(newValue)) }
    }

    public var longPress: LongPressParameters {
        get { own { if case .longPress(let p) = $0 { p } else { nil } } }
        set { replace(.longPress(newValue)) }
    }

    public var pan: PanParameters {
        get { own { if case .pan(let p) = $0 { p } else { nil } } }
        set { replace(.pan(newValue)) }
    }

    public var edgePan: EdgePanParameters {
        get { own { if case .edgePan(let p) = $0 { p } else { nil } } }
        set { replace(.edgePan(newValue)) }
    }

    public var swipe: SwipeParameters {
        get { own { if case .swipe(let p) = $0 { p } else { nil } } }
        set { replace(.swipe(newValue)) }
    }

    public var pinch: PinchParameters {
        get { own { if case .pinch(let p) = $0 { p } else { nil } } }
        set { replace(.pinch(newValue)) }
    }

    public var rotation: RotationParameters {
        get { own { if case .rotation(let p) = $0 { p } else { nil } } }
        set { replace(.rotation(newValue)) }
    }

    private func own<P>(_ extract: (GestureParameters) -> P?) -> P {
        guard let parameters = extract(parameters) else { preconditionFailure("\(name) is a \(type) gesture, not a \(P.self)") }
        return parameters
    }

    private mutating func replace(_ new: GestureParameters) {
        precondition(new.type == type, "\(name) is a \(type) gesture, not a \(new.type)")
        parameters = new
    }
}
