import GestureCore

/// Walks the parsed TOML table section by section, reporting problems to the sink and
/// carrying on with placeholders so that one pass finds them all.
final class ConfigBuilder {
    let root: TopLevel
    let sink: DiagnosticSink
    /// The screen; nil when `[screen]` is missing or invalid, and then frames are laid out
    /// on a stand-in and not checked against it (they would all seem wrong).
    private(set) var screen: ScreenSize?

    /// The top-level tables, read once.
    struct TopLevel {
        let daemon: TableReader?
        let screen: TableReader?
        let devices: TOMLValue?
        let views: TableReader?
        let gestures: TableReader?
        let modes: TableReader?
        let idle: TableReader?
    }

    /// The names of `[mode.NAME]`, for the actions that switch to one.
    private(set) var modeNames: [String] = []

    init(root table: TOMLTable, sink: DiagnosticSink) {
        let reader = TableReader(table: table, path: ConfigKeyPath(), sink: sink)
        root = TopLevel(
            daemon: reader.table("daemon"), screen: reader.table("screen"),
            devices: reader.value("device"), views: reader.table("view"),
            gestures: reader.table("gesture"), modes: reader.table("mode"), idle: reader.table("idle"))
        reader.finish()
        self.sink = sink
        screen = readScreen(root.screen)
    }

    /// The configuration, or nil when a problem left no usable value (the sink says which).
    func build() -> Configuration? {
        let daemon = readDaemon(root.daemon)
        // Without a valid screen, lay out on a stand-in so frames report only their own problems.
        let layout = screen ?? ScreenSize(width: 1000, height: 1000)
        let screenRect = Rect(x: 0, y: 0, width: layout.width, height: layout.height)
        let devices = readDevices(root.devices, screen: screenRect)
        let views = readViews(root.views, screen: screenRect)
        modeNames = readModeNames(root.modes)
        let (gestures, actions) = readGestures(root.gestures, views: views, screen: screenRect)
        let modes = readModes(root.modes, names: modeNames, views: views, gestures: gestures)
        let idle = readIdle(root.idle, devices: devices)
        do {
            // Built even without a valid screen, so failure cycles are found in the same pass.
            let model = try GestureModel(screen: layout, views: views, gestures: gestures)
            guard screen != nil else { return nil }
            var configuration = Configuration(daemon: daemon, model: model, devices: devices, actions: actions)
            configuration.modes = modes
            configuration.idle = idle
            return configuration
        } catch {
            report(error, gestures: gestures)
            return nil
        }
    }

    /// Names declared under a table, in the order the files declare them (a drop-in's
    /// after the main file's).
    func namesInFileOrder(_ reader: TableReader) -> [String] {
        reader.table.keys.sorted { a, b in
            sink.location(of: reader.path.appending(a)) < sink.location(of: reader.path.appending(b))
        }
    }

    /// Model errors the builder could not rule out earlier: failure cycles.
    private func report(_ error: ModelError, gestures: [GestureSpec]) {
        switch error {
        case .failureCycle(let names):
            // One edge per pair, declared from either side. Placed at the edge the latest file
            // wrote (a drop-in that closed the cycle), the others named when they are in
            // other files: the operator sees the line they changed and what it met.
            let edges = zip(names, names.dropFirst()).map { waiting, awaited in
                let declaredByWaiter =
                    gestures.first { $0.name == waiting }?.requireToFail
                    .contains { gestures[$0].name == awaited } ?? false
                return declaredByWaiter
                    ? ConfigKeyPath(keys: "gesture", waiting, "require_to_fail")
                    : ConfigKeyPath(keys: "gesture", awaited, "required_to_fail_by")
            }
            let located = edges.map { (path: $0, location: sink.location(of: $0)) }
            let latestFile = located.map(\.location.fileIndex).max()
            guard let latest = located.first(where: { $0.location.fileIndex == latestFile }) else { return }
            let others = located.filter { $0.location.fileIndex != latestFile }
            let also = others.isEmpty ? "" : " (with " + others.map { "\($0.path) at \($0.location)" }.joined(separator: ", ") + ")"
            sink.report(
                latest.path, "failure requirements form a cycle: \(names.joined(separator: " -> "))\(also)",
                expected: "gestures that wait for each other's failure in one direction only")
        case .noRootView, .badParent, .badView, .badGestureReference:
            sink.report(ConfigKeyPath(keys: "view"), "\(error)")
        }
    }

    /// `{ x, y, width, height }` in px or percent of `parent`, offsets from its origin.
    /// Omitted: x and y 0, width and height 100%. A rectangle wholly outside its parent
    /// (`parentName`) could never be touched and is an error.
    func readRect(_ reader: TableReader, in parent: Rect, parentName: String) -> Rect? {
        func component(_ key: String, default value: Units.FrameLength) -> Units.FrameLength? {
            guard reader.contains(key) else {
                _ = reader.value(key)
                return value
            }
            return reader.read(key, expected: Units.frameExpected) { value throws(TableReader.Problem) in
                if let number = TableReader.number(value) { return .pixels(number) }
                guard let text = value.string else { return nil }
                guard let length = Units.frameLength(text) else {
                    throw TableReader.Problem(message: "unknown unit or malformed number")
                }
                return length
            }
        }
        let x = component("x", default: .pixels(0))
        let y = component("y", default: .pixels(0))
        let width = component("width", default: .percent(100))
        let height = component("height", default: .percent(100))
        reader.finish()
        guard let x, let y, let width, let height else { return nil }
        let rect = FrameSpec(x: x, y: y, width: width, height: height).resolve(in: parent)
        for (key, size) in [("width", rect.width), ("height", rect.height)] where size <= 0 {
            sink.report(
                reader.path.appending(key), "must be more than 0", expected: Units.frameExpected,
                found: Units.format(size) + "px")
        }
        guard rect.width > 0 && rect.height > 0 else { return nil }
        let overlaps =
            rect.x < parent.x + parent.width && parent.x < rect.x + rect.width
            && rect.y < parent.y + parent.height && parent.y < rect.y + rect.height
        if screen != nil, !overlaps {
            sink.report(
                reader.path, "lies entirely outside \(parentName), so no touch can reach it",
                expected: "a rectangle overlapping \(parentName) (\(Units.format(rect: parent)))",
                found: Units.format(rect: rect))
        }
        return rect
    }

    /// Gesture or view names under a key, checked against `names`: unknown ones (with a
    /// did-you-mean), repeats and, with `excluding`, the owner itself are reported.
    func readReferences(
        _ reader: TableReader, key: String, kind: String, names: [String],
        excluding owner: String? = nil
    ) -> [Int] {
        guard let list = reader.strings(key, expected: "an array of \(kind) names") else { return [] }
        let path = reader.path.appending(key)
        var indices: [Int] = []
        for name in list {
            if name == owner {
                sink.report(path, "a \(kind) cannot name itself", found: "\"\(name)\"")
            } else if let index = names.firstIndex(of: name) {
                if indices.contains(index) {
                    sink.report(path, "'\(Diagnostic.shown(name))' is listed twice")
                } else {
                    indices.append(index)
                }
            } else {
                sink.report(
                    path, "unknown \(kind) '\(Diagnostic.shown(name))'",
                    didYouMean: DidYouMean.suggestion(for: name, among: names))
            }
        }
        return indices
    }
}
