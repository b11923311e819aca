/// The views of a model as a tree, for hit-testing and for "is V an ancestor of the hit view".
struct ViewTree {
    private(set) var views: [ViewSpec]
    /// Children of each view in declaration order (later ones lie on top).
    private let children: [[Int]]
    /// `containsView[a * count + b]`: a is b or an ancestor of b.
    private let containsView: [Bool]

    init(_ views: [ViewSpec]) {
        self.views = views
        self.views.reserveCapacity(views.count)  // its own buffer: `set` changes it in place
        var children = [[Int]](repeating: [], count: views.count)
        var contains = [Bool](repeating: false, count: views.count * views.count)
        for (i, view) in views.enumerated() {
            if let parent = view.parent { children[parent].append(i) }
            var a: Int? = i
            while let ancestor = a {
                contains[ancestor * views.count + i] = true
                a = views[ancestor].parent
            }
        }
        self.children = children
        containsView = contains
    }

    /// True when `view` is `hit` or one of its ancestors.
    @inline(__always) func isSelfOrAncestor(_ view: Int, of hit: Int) -> Bool {
        hit >= 0 && containsView[view * views.count + hit]
    }

    /// The deepest, topmost, enabled, visible view containing the point; -1 when even the
    /// root refuses it. A hidden or disabled view hides its whole subtree.
    func hitTest(x: Double, y: Double) -> Int {
        guard !views.isEmpty, usable(views[0]), views[0].frame.contains(x: x, y: y) else { return -1 }
        var current = 0
        descending: while true {
            let siblings = children[current]
            var k = siblings.count
            while k > 0 {  // topmost (last declared) first; an index loop allocates nothing
                k -= 1
                let view = views[siblings[k]]
                if usable(view), view.frame.contains(x: x, y: y) {
                    current = siblings[k]
                    continue descending
                }
            }
            return current
        }
    }

    /// A view's `enabled` and `frame` changed at runtime; the tree's shape never does.
    mutating func set(_ v: Int, enabled: Bool, frame: Rect) {
        views[v].enabled = enabled
        views[v].frame = frame
    }

    private func usable(_ view: ViewSpec) -> Bool { view.enabled && !view.hidden }
}
