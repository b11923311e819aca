import GestureCore

/// Frames through a `TouchHealth` stage as the pipeline drives one: timers fired at their
/// deadlines between frames, each output frame logged and checked against the stage's
/// promises (every contact shown begins once, then ends exactly once, and nothing of it
/// follows its end; ids never reused).
public final class HealthRun {
    public let stage: TouchHealth
    /// "ms id phase" per contact of every output frame (stationary ones left out).
    public private(set) var log: [String] = []
    public private(set) var notices: [HealthNotice] = []
    public private(set) var filtered: [FilteredContact] = []
    /// Every frame the stage put out, in order.
    public private(set) var outputs: [ScreenFrame] = []
    /// Broken promises, as sentences (empty when the stage kept them all).
    public private(set) var violations: [String] = []
    /// Output contacts that began and have not ended.
    public private(set) var open: Set<Int32> = []
    /// Output contacts that began, ended or not.
    public private(set) var shown: Set<Int32> = []
    /// The id source for splits: above anything a test uses.
    public private(set) var nextID: Int32 = 10_000

    public init(_ settings: TouchHealthSettings, geometry: DeviceGeometry, device: DeviceID = DeviceID(1)) {
        stage = TouchHealth(device: device, settings: settings, geometry: geometry)
        stage.recordsFiltered = true
    }

    /// A stage over a `FrameBuilder`'s panel, mapped onto its whole screen.
    public convenience init(_ settings: TouchHealthSettings, panel: FrameBuilder = FrameBuilder()) {
        self.init(settings, geometry: DeviceGeometry(screen: panel.screen, x: panel.x, y: panel.y, mapping: .identity))
    }

    /// Feeds `frames` (placed by the stage's geometry), then runs time on to `end` (every deadline up to it).
    public func run(_ frames: [TouchFrame], until end: Microseconds? = nil) {
        for i in 0..<frames.count {
            fire(before: frames[i].time)
            if stage.handle(stage.geometry.place(frames[i]), freshID: takeID) { record() }
            drain()
        }
        if let end {
            fire(before: end + 1)
            drain()
        }
    }

    /// The filtered contacts' rules, in order.
    public var filteredRules: [HealthRule] { filtered.map(\.rule) }

    /// The state changes, as "ms from->to".
    public var stateChanges: [String] {
        notices.compactMap { notice in
            guard case .state(let from, let to, _) = notice.kind else { return nil }
            return "\(notice.time / 1000) \(from)->\(to)"
        }
    }

    private func takeID(continuing _: Int32) -> Int32 {
        defer { nextID += 1 }
        return nextID
    }

    private func fire(before time: Microseconds) {
        while let deadline = stage.nextDeadline, deadline < time {
            if stage.advance(to: deadline, freshID: takeID) { record() }
        }
    }

    private func drain() {
        stage.drainNotices(into: &notices)
        stage.drainFiltered(into: &filtered)
    }

    private func record() {
        let frame = stage.output
        outputs.append(frame)
        for c in frame.contacts {
            if c.phase != .stationary { log.append("\(frame.time / 1000) \(c.id) \(c.phase)") }
            switch c.phase {
            case .began:
                if shown.contains(c.id) { violations.append("contact \(c.id) began twice (at \(frame.time))") }
                shown.insert(c.id)
                open.insert(c.id)
            case .moved, .stationary:
                if !open.contains(c.id) { violations.append("contact \(c.id) \(c.phase) while not shown (at \(frame.time))") }
            case .ended, .cancelled:
                if open.remove(c.id) == nil { violations.append("contact \(c.id) \(c.phase) while not shown (at \(frame.time))") }
            }
        }
    }
}
