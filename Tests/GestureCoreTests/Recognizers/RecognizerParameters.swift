/// `parameters` (a type's defaults, e.g. `TapParameters()`) with `edit` applied, for
/// building a recognizer directly.
func with<P>(_ parameters: P, _ edit: (inout P) -> Void = { _ in }) -> P {
    var p = parameters
    edit(&p)
    return p
}
