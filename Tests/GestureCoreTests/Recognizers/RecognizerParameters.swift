@testable import GestureCore

/// The default parameters of one gesture type with `edit` applied, for building a
/// recognizer directly.
func parameters(_ type: GestureType, _ edit: (inout GestureParameters) -> Void = { _ in }) -> GestureParameters {
    var p = GestureDefaults.parameters(for: type)
    edit(&p)
    return p
}
