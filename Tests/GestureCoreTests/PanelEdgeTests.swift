import GestureCore
import TestSupport
import Testing

/// Every value a panel reports lands on the screen (docs/CONFIG.md, "Where a touch lands"):
/// each axis' minimum and maximum, and values beyond them, hit the view at that edge and
/// begin an edge pan from it, under every rotation, flip, calibration and output. The
/// expected edge is derived from the mapping's meaning (`Side.mapped`), not from the code.
/// (A calibration that shrinks the panel onto part of its output leaves the rest out of
/// reach on purpose, as in libinput: not a case here.)
@Suite struct PanelEdgeTests {
    static let screen = ScreenSize(width: 1920, height: 1080)
    /// A 480 x 270 mm panel at 20 units/mm, its axes starting above 0 as some do.
    static let x = AxisRange(minimum: 100, maximum: 9699, resolution: 20)
    static let y = AxisRange(minimum: 0, maximum: 5399, resolution: 20)

    /// A side of the panel or of the screen.
    enum Side: CaseIterable, CustomStringConvertible {
        case left, top, right, bottom

        var description: String {
            switch self {
            case .left: "left"
            case .top: "top"
            case .right: "right"
            case .bottom: "bottom"
            }
        }

        /// The screen edge a panel side faces under `mapping` (its rotation turns the panel
        /// clockwise, the flips mirror after it; `mirrorsX`: a calibration that mirrors the
        /// panel's x first).
        func mapped(_ mapping: DeviceMapping, mirrorsX: Bool) -> Side {
            var side = self
            if mirrorsX { side = side.mirroredX }
            let turns = (mapping.rotation / 90) % 4
            for _ in 0..<turns { side = side.clockwise }
            if mapping.flipX { side = side.mirroredX }
            if mapping.flipY { side = side.mirroredY }
            return side
        }

        var clockwise: Side { [.left: .top, .top: .right, .right: .bottom, .bottom: .left][self]! }
        var mirroredX: Side { self == .left ? .right : self == .right ? .left : self }
        var mirroredY: Side { self == .top ? .bottom : self == .bottom ? .top : self }
        var edges: Edges { [.left: .left, .top: .top, .right: .right, .bottom: .bottom][self]! }

        /// The device position on this panel side, `beyond` units outside the range, the
        /// other axis in the middle.
        func devicePoint(beyond: Int32 = 0) -> (x: Int32, y: Int32) {
            let mx = (PanelEdgeTests.x.minimum + PanelEdgeTests.x.maximum) / 2
            let my = (PanelEdgeTests.y.minimum + PanelEdgeTests.y.maximum) / 2
            return switch self {
            case .left: (PanelEdgeTests.x.minimum - beyond, my)
            case .right: (PanelEdgeTests.x.maximum + beyond, my)
            case .top: (mx, PanelEdgeTests.y.minimum - beyond)
            case .bottom: (mx, PanelEdgeTests.y.maximum + beyond)
            }
        }

        /// A 1 px strip of `rect` along this side.
        func strip(of rect: Rect) -> Rect {
            switch self {
            case .left: Rect(x: rect.x, y: rect.y, width: 1, height: rect.height)
            case .right: Rect(x: rect.x + rect.width - 1, y: rect.y, width: 1, height: rect.height)
            case .top: Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
            case .bottom: Rect(x: rect.x, y: rect.y + rect.height - 1, width: rect.width, height: 1)
            }
        }

        /// Whether `rect` lies against this side of the screen.
        func touchesScreen(_ rect: Rect) -> Bool {
            switch self {
            case .left: rect.x == 0
            case .top: rect.y == 0
            case .right: rect.x + rect.width == PanelEdgeTests.screen.width
            case .bottom: rect.y + rect.height == PanelEdgeTests.screen.height
            }
        }
    }

    /// One mapping and whether its calibration mirrors the panel's x.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var mapping: DeviceMapping
        var mirrorsX = false
        var description: String { name }
    }

    static let rightHalf = Rect(x: 960, y: 0, width: 960, height: 1080)
    static let cases: [Case] = [
        Case(name: "identity", mapping: .identity),
        Case(name: "rotation 90", mapping: DeviceMapping(rotation: 90)),
        Case(name: "rotation 180", mapping: DeviceMapping(rotation: 180)),
        Case(name: "rotation 270", mapping: DeviceMapping(rotation: 270)),
        Case(name: "flip_x", mapping: DeviceMapping(flipX: true)),
        Case(name: "flip_y", mapping: DeviceMapping(flipY: true)),
        Case(name: "rotation 90, flip_x, flip_y", mapping: DeviceMapping(rotation: 90, flipX: true, flipY: true)),
        Case(name: "rotation 270, flip_y", mapping: DeviceMapping(rotation: 270, flipY: true)),
        Case(
            name: "calibration mirroring x (libinput's)", mapping: DeviceMapping(calibration: [-1, 0, 1, 0, 1, 0]),
            mirrorsX: true),
        Case(name: "calibration stretching 5 %", mapping: DeviceMapping(calibration: [1.05, 0, -0.025, 0, 1.05, -0.025])),
        Case(name: "output: the right half", mapping: DeviceMapping(output: rightHalf)),
        Case(name: "output: the right half, rotation 180", mapping: DeviceMapping(rotation: 180, output: rightHalf)),
    ]

    static func geometry(_ mapping: DeviceMapping) -> DeviceGeometry {
        DeviceGeometry(screen: screen, x: x, y: y, mapping: mapping)
    }

    static func place(_ p: (x: Int32, y: Int32), _ g: DeviceGeometry) -> (x: Double, y: Double) {
        g.screenPoint(normalizedX: x.normalize(p.x), normalizedY: y.normalize(p.y))
    }

    static func output(_ mapping: DeviceMapping) -> Rect {
        mapping.output ?? Rect(x: 0, y: 0, width: screen.width, height: screen.height)
    }

    // MARK: the mapping

    @Test func theLastValueOwnsTheLastCellAsInLibinput() {
        // (v - min) * size / (max - min + 1): libinput's scale_axis.
        let axis = AxisRange(minimum: 0, maximum: 1080)
        #expect(axis.valueCount == 1081)
        #expect(axis.normalize(0) == 0)
        #expect(axis.normalize(1080) * 1080 == 1080.0 * 1080 / 1081)
        #expect(axis.normalize(1080) < 1)
        // Beyond the range: on the nearest edge, not off the panel; just inside: not clamped.
        #expect(axis.normalize(1081) == axis.normalize(1080))
        #expect(axis.normalize(40_000) == axis.normalize(1080))
        #expect(axis.normalize(-5) == 0)
        #expect(axis.normalize(1079) < axis.normalize(1080))
        #expect(axis.normalize(1) > 0)
        // A degenerate axis maps everything to its one place.
        #expect(AxisRange(minimum: 5, maximum: 5).normalize(9) == 0)
        #expect(AxisRange(minimum: 5, maximum: 1).normalize(3) == 0)
    }

    @Test(arguments: cases)
    func everyExtremeHitsTheStripOfItsEdge(_ c: Case) {
        let g = Self.geometry(c.mapping)
        let output = Self.output(c.mapping)
        for side in Side.allCases {
            let edge = side.mapped(c.mapping, mirrorsX: c.mirrorsX)
            for beyond: Int32 in [0, 1, 500] {
                let p = Self.place(side.devicePoint(beyond: beyond), g)
                #expect(output.contains(x: p.x, y: p.y), "\(c) \(side) +\(beyond): \(p) outside \(output)")
                #expect(edge.strip(of: output).contains(x: p.x, y: p.y), "\(c) \(side) +\(beyond): \(p) not on the \(edge) edge")
            }
        }
    }

    @Test(arguments: cases)
    func oneValueInsideTheExtremeIsInsideItsPlace(_ c: Case) {
        // The other side of the edge: the value before the maximum lies before it on the
        // screen (unless a calibration stretched both beyond it), never on top of the edge.
        let g = Self.geometry(c.mapping)
        for side in Side.allCases {
            let edge = side.mapped(c.mapping, mirrorsX: c.mirrorsX)
            let at = side.devicePoint()
            let inside = (x: at.x + (side == .left ? 1 : side == .right ? -1 : 0), y: at.y + (side == .top ? 1 : side == .bottom ? -1 : 0))
            let p = Self.place(at, g)
            let q = Self.place(inside, g)
            let (extreme, next) = edge == .left || edge == .right ? (p.x, q.x) : (p.y, q.y)
            let inward = edge == .left || edge == .top ? next >= extreme : next <= extreme
            #expect(inward, "\(c) \(side): \(next) is not inside \(extreme)")
        }
    }

    @Test func theMirrorOfACellIsTheMirroredCell() {
        // The minimum mirrored lands where the maximum does unmirrored, and back.
        let plain = Self.geometry(.identity)
        let flipped = Self.geometry(DeviceMapping(flipX: true))
        let left = Side.left.devicePoint()
        let right = Side.right.devicePoint()
        #expect(Self.place(left, flipped).x == Self.place(right, plain).x)
        #expect(Self.place(right, flipped).x == Self.place(left, plain).x)
        #expect(Self.place(right, flipped).x == 0)
    }

    @Test func insideThePanelThePositionMovesByLessThanAPixel() {
        // The old mapping, (v - min) / (max - min), against libinput's, on the whole axis.
        let g = Self.geometry(.identity)
        var worst = 0.0
        for v in stride(from: Self.x.minimum, through: Self.x.maximum, by: 7) {
            let old = (Double(v) - Double(Self.x.minimum)) / Double(Self.x.maximum - Self.x.minimum) * Self.screen.width
            worst = max(worst, abs(Self.place((v, 0), g).x - old))
        }
        #expect(worst < 1, "\(worst) px")
        #expect(worst > 0.1)  // the far edge did move (by 1920/9600 px)
    }

    // MARK: through the engine

    /// Taps in 1 px strips along the output's four sides, and one edge pan from every edge.
    static func model(output: Rect) throws -> GestureModel {
        var m = ModelBuilder(screen: screen)
        for side in Side.allCases {
            m.view("\(side)", frame: side.strip(of: output))
            m.gesture("tap \(side)", .tap, on: "\(side)")
        }
        m.gesture("edge", .edgePan) { $0.edgePan.edges = [.left, .top, .right, .bottom] }
        return try m.build()
    }

    /// One finger from `start` 40 mm towards the panel's middle in 10 frames, or a tap there.
    static func frames(from start: (x: Int32, y: Int32), drag: Bool) -> [TouchFrame] {
        let middle = (x: (x.minimum + x.maximum) / 2, y: (y.minimum + y.maximum) / 2)
        var frames: [TouchFrame] = []
        func contact(_ phase: TouchPhase, _ p: (x: Int32, y: Int32)) -> Contact {
            Contact(id: 1, slot: 0, phase: phase, x: p.x, y: p.y, normalizedX: x.normalize(p.x), normalizedY: y.normalize(p.y))
        }
        frames.append(TouchFrame(device: DeviceID(1), time: 0, contacts: [contact(.began, start)]))
        var p = start
        if drag {
            // 40 mm at 20 units/mm, from the clamped start (a value beyond the range moves
            // inwards from the edge).
            let from = (x: min(max(start.x, x.minimum), x.maximum), y: min(max(start.y, y.minimum), y.maximum))
            let dx = middle.x == from.x ? 0 : (middle.x > from.x ? 800 : -800)
            let dy = middle.y == from.y ? 0 : (middle.y > from.y ? 800 : -800)
            for k in 1...10 {
                p = (from.x + Int32(dx * k / 10), from.y + Int32(dy * k / 10))
                frames.append(TouchFrame(device: DeviceID(1), time: Int64(k) * 10_000, contacts: [contact(.moved, p)]))
            }
        }
        frames.append(TouchFrame(device: DeviceID(1), time: drag ? 110_000 : 60_000, contacts: [contact(.ended, p)]))
        return frames
    }

    static func run(_ c: Case, from start: (x: Int32, y: Int32), drag: Bool) throws -> PipelineHarness {
        let h = PipelineHarness(model: try model(output: output(c.mapping)))
        h.attach(device: DeviceID(1), x: x, y: y, mapping: c.mapping)
        h.run(frames(from: start, drag: drag))
        h.settle()
        return h
    }

    @Test(arguments: cases)
    func aTapAtEachExtremeIsRecognizedOnItsEdge(_ c: Case) throws {
        for side in Side.allCases {
            let edge = side.mapped(c.mapping, mirrorsX: c.mirrorsX)
            for beyond: Int32 in [0, 300] {
                let h = try Self.run(c, from: side.devicePoint(beyond: beyond), drag: false)
                #expect(h.log == ["tap \(edge) recognized"], "\(c) \(side) +\(beyond)")
            }
        }
    }

    @Test(arguments: cases)
    func anEdgePanBeginsFromEachExtreme(_ c: Case) throws {
        let output = Self.output(c.mapping)
        for side in Side.allCases {
            let edge = side.mapped(c.mapping, mirrorsX: c.mirrorsX)
            for beyond: Int32 in [0, 300] {
                let h = try Self.run(c, from: side.devicePoint(beyond: beyond), drag: true)
                let began = h.events(of: "edge").filter { $0.state == .began }
                if edge.touchesScreen(output) {
                    #expect(began.map(\.edge) == [edge.edges], "\(c) \(side) +\(beyond): \(h.log)")
                } else {
                    // The screen's edges only: this side of the output lies mid-screen.
                    #expect(began.isEmpty, "\(c) \(side) +\(beyond): \(h.log)")
                }
            }
        }
    }

    @Test func anEdgePanFromTheEdgeMarginsInsideStillBeginsAndOneBeyondItDoesNot() throws {
        // Both sides of the margin (5 mm = 100 units): the other threshold of an edge start.
        let c = Case(name: "identity", mapping: .identity)
        let inside = try Self.run(c, from: (Self.x.maximum - 95, 2700), drag: true)
        #expect(inside.events(of: "edge").first?.edge == .right)
        let outside = try Self.run(c, from: (Self.x.maximum - 110, 2700), drag: true)
        #expect(outside.events(of: "edge").isEmpty)
    }
}
