import GestureCore

/// Which screen edges an edge pan on a view can start from. Edges are the screen's (the
/// recognizer measures from the screen's border), and a touch reaches a view's gestures only
/// where it lands inside the view, so a view far from an edge never sees a touch near it.
/// Without a device, "near" is the farthest the margin can reach on any panel: the smallest
/// plausible one (`DeviceGeometry.plausibleMillimeters`) or 1 pt = 1 px, whichever is more.
enum EdgeReach {
    /// The farthest from the screen's border, in px along an axis of `extent` px, that
    /// `margin` may reach on any panel.
    static func farthest(_ margin: Length, extent: Double) -> Double {
        let smallestMillimetersPerPixel = min(
            DeviceGeometry.plausibleMillimeters.lowerBound / extent, GestureDefaults.pointInMillimeters)
        switch margin {
        case .pixels(let px): return px
        case .millimeters(let mm): return mm / smallestMillimetersPerPixel
        case .points(let pt): return pt * GestureDefaults.pointInMillimeters / smallestMillimetersPerPixel
        }
    }

    /// The px between a screen edge and the nearest point of `view` (0 when it touches it).
    static func distance(to edge: Edges, from view: Int, in model: GestureModel) -> Double {
        let f = model.views[view].frame
        let screen = model.screen
        return switch edge {
        case .left: max(0, f.x)
        case .right: max(0, screen.width - (f.x + f.width))
        case .top: max(0, f.y)
        default: max(0, screen.height - (f.y + f.height))
        }
    }

    /// The edges among `edges` that a touch in `view` can land within `margin` of.
    static func reachable(_ edges: Edges, from view: Int, margin: Length, in model: GestureModel) -> Edges {
        var reached: Edges = []
        for (_, edge) in ParameterKeys.edgeNames where edges.contains(edge) {
            let extent = edge == .left || edge == .right ? model.screen.width : model.screen.height
            if distance(to: edge, from: view, in: model) <= farthest(margin, extent: extent) { reached.insert(edge) }
        }
        return reached
    }

    /// The edges a view lies against (distance 0), for "use these instead".
    static func touching(_ view: Int, in model: GestureModel) -> Edges {
        var touching: Edges = []
        for (_, edge) in ParameterKeys.edgeNames where distance(to: edge, from: view, in: model) == 0 {
            touching.insert(edge)
        }
        return touching
    }

    /// `"left", "right"` as the config writes them.
    static func names(_ edges: Edges) -> [String] {
        ParameterKeys.edgeNames.filter { edges.contains($0.1) }.map(\.0)
    }
}
