/// The validated model the engine runs: screen, views (index 0 is the root) and gestures.
public struct GestureModel: Equatable, Sendable {
    public var screen: ScreenSize
    public var views: [ViewSpec]
    public var gestures: [GestureSpec]

    /// Validates indices and the failure-requirement graph (both declaration directions).
    public init(screen: ScreenSize, views: [ViewSpec], gestures: [GestureSpec]) throws(ModelError) {
        self.screen = screen
        self.views = views
        self.gestures = gestures
        try validate()
    }

    /// Gives the views and gestures arrays buffers of their own (`reserveCapacity` copies a
    /// shared one), so that changing an element in place later allocates nothing.
    mutating func ownStorage() {
        views.reserveCapacity(views.count)
        gestures.reserveCapacity(gestures.count)
    }

    /// Every "A waits for B to fail" edge, from `requireToFail` and `requiredToFailBy` alike.
    public func failureRequirements(of gesture: Int) -> [Int] {
        var result = gestures[gesture].requireToFail
        for (other, spec) in gestures.enumerated() where spec.requiredToFailBy.contains(gesture) {
            if !result.contains(other) { result.append(other) }
        }
        return result
    }

    /// How many ancestors a view has (the root: 0).
    public func depth(of view: Int) -> Int {
        var d = 0
        var v = views[view].parent
        while let p = v {
            d += 1
            v = views[p].parent
        }
        return d
    }

    private func validate() throws(ModelError) {
        guard let root = views.first, root.parent == nil else { throw .noRootView }
        for (i, view) in views.enumerated().dropFirst() {
            guard let parent = view.parent, parent >= 0, parent < i else {
                throw .badParent(view: view.name)  // parents are declared before children
            }
        }
        for spec in gestures {
            guard spec.view >= 0, spec.view < views.count else { throw .badView(gesture: spec.name) }
            let related =
                spec.simultaneousWith + spec.requireToFail + spec.requiredToFailBy
                + spec.cannotPrevent + spec.cannotBePreventedBy
            for index in related where index < 0 || index >= gestures.count {
                throw .badGestureReference(gesture: spec.name)
            }
        }
        if let cycle = findFailureCycle() {
            throw .failureCycle(cycle.map { gestures[$0].name })
        }
    }

    /// Depth-first search over failure requirements; returns one cycle, first node repeated last.
    private func findFailureCycle() -> [Int]? {
        enum Mark { case unvisited, onStack, done }
        var marks = [Mark](repeating: .unvisited, count: gestures.count)
        var stack: [Int] = []
        func visit(_ node: Int) -> [Int]? {
            marks[node] = .onStack
            stack.append(node)
            for next in failureRequirements(of: node) {
                switch marks[next] {
                case .onStack:
                    let start = stack.firstIndex(of: next)!
                    return Array(stack[start...]) + [next]
                case .unvisited:
                    if let cycle = visit(next) { return cycle }
                case .done:
                    break
                }
            }
            stack.removeLast()
            marks[node] = .done
            return nil
        }
        for node in gestures.indices where marks[node] == .unvisited {
            if let cycle = visit(node) { return cycle }
        }
        return nil
    }
}

/// Why a model cannot be built. GestureConfig reports these with file positions.
public enum ModelError: Error, Equatable, Sendable, CustomStringConvertible {
    case noRootView
    case badParent(view: String)
    case badView(gesture: String)
    case badGestureReference(gesture: String)
    /// The names around the cycle, the first repeated at the end ("a -> b -> a").
    case failureCycle([String])

    public var description: String {
        switch self {
        case .noRootView: "the first view must be the root (no parent)"
        case .badParent(let view): "view '\(view)' names a parent that is not declared before it"
        case .badView(let gesture): "gesture '\(gesture)' names a view that does not exist"
        case .badGestureReference(let gesture): "gesture '\(gesture)' refers to a gesture that does not exist"
        case .failureCycle(let names): "failure requirements form a cycle: " + names.joined(separator: " -> ")
        }
    }
}
