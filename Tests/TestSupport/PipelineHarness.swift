import GestureConfig
import GestureCore
import TouchPipeline

/// Pushes frames from any source (a `FrameBuilder`, a recording's normalizer) through the
/// pipeline's `FramePath` (each device's geometry, the frame stages, the engine), firing
/// deadlines as a daemon would, and keeps every event and trace record.
public final class PipelineHarness {
    public let path: FramePath
    /// The engine, to observe.
    public var engine: GestureEngine { path.engine }
    public private(set) var events: [GestureEvent] = []
    public private(set) var trace: [TraceRecord] = []
    /// What the application saw, when the engine's touch delivery is enabled.
    public private(set) var touches: [TouchChange] = []
    /// Warnings `attach` returned, worded as the daemon logs them.
    public private(set) var warnings: [String] = []

    public init(model: GestureModel, trace: Bool = true) {
        path = FramePath(model: model)
        path.engine.traceEnabled = trace
    }

    public func attach(
        device: DeviceID, name: String = "test panel", x: AxisRange, y: AxisRange,
        mapping: DeviceMapping = .identity, health: TouchHealthSettings = TouchHealthSettings()
    ) {
        if let warning = path.attach(device: device, name: name, x: x, y: y, mapping: mapping, health: health) {
            warnings.append(warning.message)
        }
    }

    public func attach(_ builder: FrameBuilder, name: String = "test panel", mapping: DeviceMapping = .identity) {
        attach(device: builder.device, name: name, x: builder.x, y: builder.y, mapping: mapping)
    }

    /// Handles each frame, after firing the deadlines that come before it.
    public func run(_ frames: some Sequence<TouchFrame>) {
        for frame in frames {
            path.handle(frame, into: &events)
            engine.drainTrace(into: &trace)
            engine.drainTouchChanges(into: &touches)
        }
    }

    /// Fires the deadlines up to `time`.
    public func advance(to time: Int64) {
        path.advance(to: time, into: &events)
        engine.drainTrace(into: &trace)
        engine.drainTouchChanges(into: &touches)
    }

    /// Fires every remaining deadline.
    public func settle() {
        while let deadline = path.nextDeadline { advance(to: deadline) }
    }

    public func replace(_ model: GestureModel, at time: Int64) {
        path.replaceModel(model, at: time, into: &events)
        engine.drainTrace(into: &trace)
        engine.drainTouchChanges(into: &touches)
    }

    /// `GestureEngine.setGesture` by name, at `time`.
    public func setGesture(_ name: String, enabled: Bool, at time: Int64) {
        let g = engine.model.gestures.firstIndex { $0.name == name }!
        path.advance(to: time, into: &events)
        engine.setGesture(g, enabled: enabled, at: time, into: &events)
        engine.drainTrace(into: &trace)
        engine.drainTouchChanges(into: &touches)
    }

    /// `GestureEngine.setView` by name, at `time`; the frame stays when nil.
    public func setView(_ name: String, enabled: Bool = true, frame: Rect? = nil, at time: Int64) {
        let v = engine.model.views.firstIndex { $0.name == name }!
        path.advance(to: time, into: &events)
        engine.setView(v, enabled: enabled, frame: frame ?? engine.model.views[v].frame, at: time, into: &events)
        engine.drainTrace(into: &trace)
        engine.drainTouchChanges(into: &touches)
    }

    /// "name state" per event, with the engine's model for names.
    public var log: [String] {
        events.map { "\(engine.model.gestures[$0.gesture].name) \($0.state)" }
    }

    /// The events of one gesture, by name.
    public func events(of name: String) -> [GestureEvent] {
        events.filter { engine.model.gestures[$0.gesture].name == name }
    }

    /// The trace in its printed form, `[view/gesture] from -> to (reason)`.
    public var traceLog: [String] { trace.map { $0.describe(in: engine.model) } }

    public func forgetEvents() { events.removeAll() }

    /// "id kind" per application-side change, with "+delay ms" when it was held back.
    public var touchLog: [String] {
        touches.map { "\($0.id) \($0.kind)" + ($0.delay > 0 ? " +\($0.delay / 1000)ms" : "") }
    }
}

/// Builds a `GestureModel` by names, for tests.
public struct ModelBuilder {
    public var screen: ScreenSize
    public private(set) var views: [ViewSpec]
    public private(set) var gestures: [GestureSpec] = []

    public init(screen: ScreenSize = ScreenSize(width: 1000, height: 600)) {
        self.screen = screen
        views = [ViewSpec(name: "root", parent: nil, frame: Rect(x: 0, y: 0, width: screen.width, height: screen.height))]
    }

    public mutating func view(
        _ name: String, parent: String = "root", frame: Rect, enabled: Bool = true, hidden: Bool = false,
        passthrough: Bool = true
    ) {
        views.append(
            ViewSpec(
                name: name, parent: viewIndex(parent), frame: frame, enabled: enabled, hidden: hidden,
                passthrough: passthrough))
    }

    /// Adds a gesture with its type's defaults, changed by `configure`.
    public mutating func gesture(
        _ name: String, _ type: GestureType, on view: String = "root",
        _ configure: (inout GestureSpec) -> Void = { _ in }
    ) {
        var spec = GestureSpec(name: name, view: viewIndex(view), parameters: GestureDefaults.parameters(for: type))
        configure(&spec)
        gestures.append(spec)
    }

    public mutating func require(_ waiting: String, toFail other: String) {
        gestures[index(waiting)].requireToFail.append(index(other))
    }

    /// The same edge declared from the other side (`shouldBeRequiredToFailBy`).
    public mutating func require(_ other: String, toBeFailedBefore waiting: String) {
        gestures[index(other)].requiredToFailBy.append(index(waiting))
    }

    public mutating func simultaneous(_ a: String, with b: String) {
        gestures[index(a)].simultaneousWith.append(index(b))
    }

    public func index(_ gesture: String) -> Int {
        guard let i = gestures.firstIndex(where: { $0.name == gesture }) else { preconditionFailure("no gesture \(gesture)") }
        return i
    }

    public func viewIndex(_ name: String) -> Int {
        guard let i = views.firstIndex(where: { $0.name == name }) else { preconditionFailure("no view \(name)") }
        return i
    }

    public func build() throws -> GestureModel {
        try GestureModel(screen: screen, views: views, gestures: gestures)
    }
}
