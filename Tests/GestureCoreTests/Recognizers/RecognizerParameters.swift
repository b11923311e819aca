@testable import GestureCore

/// A type's parameters as `init()` gives them (its defaults), with `edit` applied, for
/// building a recognizer directly: `TapRecognizer(parameters(TapParameters.self) { $0.taps = 2 })`.
func parameters<P: DefaultParameters>(_ type: P.Type, _ edit: (inout P) -> Void = { _ in }) -> P {
    var p = P()
    edit(&p)
    return p
}

protocol DefaultParameters { init() }
extension TapParameters: DefaultParameters {}
extension LongPressParameters: DefaultParameters {}
extension PanParameters: DefaultParameters {}
extension EdgePanParameters: DefaultParameters {}
extension SwipeParameters: DefaultParameters {}
extension PinchParameters: DefaultParameters {}
extension RotationParameters: DefaultParameters {}
