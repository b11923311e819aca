import GestureCore

/// A kiosk layout for the benchmarks: `views` tiles in a grid over a 1920x1080 screen (one
/// view: the root alone), with `gestures` recognizers spread evenly over them.
///
/// Each tile gets a kiosk-like group of four, alternating between
/// `pan`, `swipe` (the pan waits for the swipe to fail), `tap`, `double-tap` (the tap waits
/// for it) and `pinch`, `rotation` (simultaneous), `long-press`, `edge-pan`,
/// so every recognizer type and every kind of relation is exercised.
public struct BenchModel: Sendable, CustomStringConvertible {
    public let gestures: Int
    public let views: Int

    public static let screen = ScreenSize(width: 1920, height: 1080)
    /// The three sizes of the issue: 1, 32 and 256 gestures over 1, 8 and 64 views.
    public static let all = [
        BenchModel(gestures: 1, views: 1), BenchModel(gestures: 32, views: 8),
        BenchModel(gestures: 256, views: 64),
    ]

    public init(gestures: Int, views: Int) {
        precondition(gestures >= views && gestures % views == 0, "gestures must spread evenly over the views")
        self.gestures = gestures
        self.views = views
    }

    public var description: String { "\(gestures) gestures / \(views) views" }

    /// The tile grid: columns x rows (1x1 means the root itself carries the gestures).
    private var grid: (columns: Int, rows: Int) {
        var columns = 1
        while columns * columns < views { columns *= 2 }
        return (columns, views / columns)
    }

    private static let types: [(name: String, type: GestureType)] = [
        ("pan", .pan), ("swipe", .swipe), ("tap", .tap), ("double-tap", .tap),
        ("pinch", .pinch), ("rotation", .rotation), ("long-press", .longPress), ("edge-pan", .edgePan),
    ]

    public func build() throws(ModelError) -> GestureModel {
        var viewSpecs = [
            ViewSpec(
                name: "root", parent: nil,
                frame: Rect(x: 0, y: 0, width: Self.screen.width, height: Self.screen.height))
        ]
        if views > 1 {
            let (columns, rows) = grid
            let width = Self.screen.width / Double(columns)
            let height = Self.screen.height / Double(rows)
            for tile in 0..<views {
                let frame = Rect(
                    x: Double(tile % columns) * width, y: Double(tile / columns) * height,
                    width: width, height: height)
                viewSpecs.append(ViewSpec(name: "tile\(tile)", parent: 0, frame: frame))
            }
        }
        let perView = gestures / views
        var specs: [GestureSpec] = []
        for tile in 0..<views {
            let view = views > 1 ? tile + 1 : 0
            var indexByName: [String: Int] = [:]
            for k in 0..<perView {
                let (name, type) = Self.types[(tile * perView + k) % Self.types.count]
                var parameters = GestureDefaults.parameters(for: type)
                switch parameters {
                case .tap(var tap) where name == "double-tap":
                    tap.taps = 2
                    parameters = .tap(tap)
                case .swipe(var swipe):
                    swipe.directions = [.left, .right, .up, .down]
                    parameters = .swipe(swipe)
                case .edgePan(var edgePan):
                    edgePan.edges = [.left, .top]
                    parameters = .edgePan(edgePan)
                default:
                    break
                }
                indexByName[name] = specs.count
                specs.append(GestureSpec(name: "tile\(tile)-\(name)-\(k)", view: view, parameters: parameters))
            }
            if let pan = indexByName["pan"], let swipe = indexByName["swipe"] { specs[pan].requireToFail.append(swipe) }
            if let tap = indexByName["tap"], let double = indexByName["double-tap"] { specs[tap].requireToFail.append(double) }
            if let pinch = indexByName["pinch"], let rotation = indexByName["rotation"] {
                specs[pinch].simultaneousWith.append(rotation)
            }
        }
        return try GestureModel(screen: Self.screen, views: viewSpecs, gestures: specs)
    }
}
