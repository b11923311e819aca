/// The arbitration relations of a model, resolved once into flat tables so the engine never
/// searches a list or allocates while it arbitrates.
struct Relations {
    let count: Int
    /// `simultaneous[a * count + b]`: either side allows the pair (symmetric).
    private let simultaneous: [Bool]
    /// `prevents[a * count + b]`: a, recognizing, may force b to fail (`canPrevent` of a and
    /// `canBePrevented` of b both say yes). By default every gesture can prevent every other,
    /// except UIKit's class-wide rule: a tap never prevents a tap with a higher tap count
    /// (`canPreventGestureRecognizer:` in `UIGestureRecognizerSubclass.h`), so a single tap
    /// recognizing on the first tap of a double tap leaves the double tap running.
    private let prevents: [Bool]
    /// What each gesture waits on to fail (both declaration directions).
    let requirements: [[Int]]
    /// `waits[a * count + b]`: a waits on b to fail.
    private let waits: [Bool]
    /// Who waits on each gesture to fail.
    let dependents: [[Int]]
    /// The order gestures are asked within one frame: deeper views first (UIKit asks the hit
    /// view's recognizers before its superviews'), then the more specific type first (discrete
    /// before continuous, an edge pan before a pan, a tap with more taps before one with fewer:
    /// on the tap that completes both, the double tap recognizes and excludes the single
    /// tap), then by name. Declaration order never decides.
    let order: [Int]

    init(_ model: GestureModel) {
        let n = model.gestures.count
        count = n
        var simultaneous = [Bool](repeating: false, count: n * n)
        var prevents = [Bool](repeating: true, count: n * n)
        var dependents = [[Int]](repeating: [], count: n)
        var waits = [Bool](repeating: false, count: n * n)
        var requirements = [[Int]]()
        for (a, spec) in model.gestures.enumerated() {
            for b in spec.simultaneousWith {
                simultaneous[a * n + b] = true
                simultaneous[b * n + a] = true
            }
            for b in model.gestures.indices where Self.tapNeverPrevents(spec, model.gestures[b]) { prevents[a * n + b] = false }
            for b in spec.cannotPrevent { prevents[a * n + b] = false }
            for b in spec.cannotBePreventedBy { prevents[b * n + a] = false }
            let required = model.failureRequirements(of: a).sorted()
            requirements.append(required)
            for b in required {
                dependents[b].append(a)
                waits[a * n + b] = true
            }
        }
        self.simultaneous = simultaneous
        self.prevents = prevents
        self.requirements = requirements
        self.dependents = dependents
        self.waits = waits

        order = model.gestures.indices.sorted { a, b in
            let ga = model.gestures[a]
            let gb = model.gestures[b]
            let da = model.depth(of: ga.view)
            let db = model.depth(of: gb.view)
            if da != db { return da > db }
            let ta = Self.specificity(ga.type)
            let tb = Self.specificity(gb.type)
            if ta != tb { return ta < tb }
            if let ca = Self.tapCount(ga), let cb = Self.tapCount(gb), ca != cb { return ca > cb }
            if ga.name != gb.name { return ga.name < gb.name }
            return a < b
        }
    }

    /// The taps a tap gesture needs; nil for other types.
    private static func tapCount(_ spec: GestureSpec) -> Int? {
        spec.parameters.tap?.taps
    }

    /// UIKit's class-wide rule: a tap never prevents a tap with a higher tap count.
    private static func tapNeverPrevents(_ a: GestureSpec, _ b: GestureSpec) -> Bool {
        guard let ta = tapCount(a), let tb = tapCount(b) else { return false }
        return tb > ta
    }

    /// Rank of a type when two gestures try to recognize in the same frame: lower goes first.
    private static func specificity(_ type: GestureType) -> Int {
        switch type {
        case .tap: 0
        case .swipe: 1
        case .longPress: 2
        case .edgePan: 3
        case .pinch: 4
        case .rotation: 5
        case .pan: 6
        }
    }

    @inline(__always) func requires(_ a: Int, _ b: Int) -> Bool { waits[a * count + b] }
    @inline(__always) func areSimultaneous(_ a: Int, _ b: Int) -> Bool { simultaneous[a * count + b] }
    @inline(__always) func canPrevent(_ a: Int, _ b: Int) -> Bool { prevents[a * count + b] }
}
