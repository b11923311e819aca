import GestureCore

extension ConfigBuilder {
    /// The implicit root view: the whole screen. Gestures without `view` attach to it.
    static let rootViewName = "screen"

    /// One `[view.NAME]` as written, before parents are resolved.
    private struct DeclaredView {
        var name: String
        var reader: TableReader
        var parent: String
        var enabled: Bool
        var hidden: Bool
        var passthrough: Bool
    }

    /// `[view.NAME]`s, ordered parents first and otherwise in file order, so siblings
    /// declared later stay on top. A view whose parent is unknown or circular is reported
    /// and kept at the root's size so gestures on it are still checked.
    func readViews(_ reader: TableReader?, screen: Rect) -> [ViewSpec] {
        var views = [ViewSpec(name: Self.rootViewName, parent: nil, frame: screen)]
        guard let reader else { return views }
        var declared: [DeclaredView] = []
        for name in namesInFileOrder(reader) {
            guard let view = reader.table(name) else { continue }
            checkName(name, kind: "view", path: view.path)
            if name == Self.rootViewName {
                sink.report(
                    view.path, "'\(name)' is the root view, the whole screen, and cannot be declared",
                    expected: "another name")
                continue
            }
            let parent = view.string("parent") ?? Self.rootViewName
            declared.append(
                DeclaredView(
                    name: name, reader: view, parent: parent,
                    enabled: view.bool("enabled") ?? true, hidden: view.bool("hidden") ?? false,
                    passthrough: view.bool("passthrough") ?? true))
        }
        let names = declared.map(\.name) + [Self.rootViewName]
        for view in declared where !names.contains(view.parent) {
            sink.report(
                view.reader.path.appending("parent"), "unknown view '\(Diagnostic.shown(view.parent))'",
                didYouMean: DidYouMean.suggestion(for: view.parent, among: names))
        }
        // Parents first: a depth-first walk from the root, children in file order.
        func place(childrenOf parentIndex: Int) {
            for view in declared where view.parent == views[parentIndex].name {
                let parent = views[parentIndex]
                let parentName = parentIndex == 0 ? "the screen" : "view '\(parent.name)'"
                let frame = view.reader.table("frame").flatMap { readRect($0, in: parent.frame, parentName: parentName) }
                if let frame { warnOutsideScreen(frame, path: view.reader.path.appending("frame"), screen: screen) }
                views.append(
                    ViewSpec(
                        name: view.name, parent: parentIndex, frame: frame ?? parent.frame,
                        enabled: view.enabled, hidden: view.hidden, passthrough: view.passthrough))
                place(childrenOf: views.count - 1)
            }
        }
        place(childrenOf: 0)
        for view in declared where names.contains(view.parent) && !views.contains(where: { $0.name == view.name }) {
            let chain = cycle(from: view, in: declared)
            guard chain.last == view.name else { continue }  // leads into a cycle reported on its members
            sink.report(
                view.reader.path.appending("parent"),
                "views' parents form a cycle: \(chain.joined(separator: " -> "))",
                expected: "a tree of views under '\(Self.rootViewName)'")
        }
        for view in declared {
            if !views.contains(where: { $0.name == view.name }) {
                // Unplaced (bad parent): checked, attached to the root so indices stay valid.
                _ = view.reader.table("frame").flatMap { readRect($0, in: screen, parentName: "the screen") }
                views.append(ViewSpec(name: view.name, parent: 0, frame: screen))
            }
            view.reader.finish()
        }
        return views
    }

    /// A view that reaches past the screen has a part no touch can reach; one wholly past
    /// it (inside a parent that reaches out: past the parent is an error) has nothing.
    private func warnOutsideScreen(_ frame: Rect, path: ConfigKeyPath, screen: Rect) {
        guard self.screen != nil else { return }
        let size = "\(Units.format(screen.width))x\(Units.format(screen.height))"
        let own = "its frame is " + Units.format(rect: frame)
        let overlaps =
            frame.x < screen.x + screen.width && screen.x < frame.x + frame.width
            && frame.y < screen.y + screen.height && screen.y < frame.y + frame.height
        if !overlaps {
            sink.warn(path, "lies entirely outside the screen (\(size)), so no touch can reach it: \(own)")
        } else if frame.x < screen.x || frame.y < screen.y || frame.x + frame.width > screen.x + screen.width
            || frame.y + frame.height > screen.y + screen.height
        {
            sink.warn(
                path,
                "reaches outside the screen (\(size)), where no touch lands: \(own); keep x + width within "
                    + "\(Units.format(screen.width)) and y + height within \(Units.format(screen.height))")
        }
    }

    /// The parent chain from `start` until a name repeats, that name last.
    private func cycle(from start: DeclaredView, in declared: [DeclaredView]) -> [String] {
        var chain = [start.name]
        var current = start
        while let parent = declared.first(where: { $0.name == current.parent }), !chain.contains(parent.name) {
            chain.append(parent.name)
            current = parent
        }
        return chain + [current.parent]
    }
}
