import ConfigModel
import GestureCore
import TouchInput
import TouchPipeline

/// What a recording did on a config, for drawing: every contact's path in screen px and
/// every gesture's outcomes. The outcomes are the events and trace records of the same
/// `VirtualReplay` over a `GesturePipeline` that `gesturectl replay` runs; the contacts'
/// screen positions are the pipeline's normalizer frames through the geometry it placed
/// them with (palms included, which the frame stages keep from the engine).
public struct RecordingOverlay: Sendable {
    /// One point of a contact's path.
    public struct Point: Equatable, Sendable {
        /// Microseconds since the recording's first event.
        public var t: Microseconds
        public var x: Double
        public var y: Double
    }

    /// One contact from touch-down to lift.
    public struct ContactTrace: Equatable, Sendable {
        /// `ABS_MT_TRACKING_ID` (unique while live; a recording may reuse it later).
        public var trackingID: Int32
        public var points: [Point]
        /// How it ended: `ended` (lifted) or `cancelled` (SYN_DROPPED, end of the recording).
        public var end: TouchPhase
        /// Set when the touch-health stage kept it from the gestures and the application.
        public var filtered: Filtered? = nil
    }

    /// Why the health stage filtered a contact (`[device.health]`), as `replay` reports it.
    public struct Filtered: Equatable, Sendable {
        public var rule: HealthRule
        /// True when it had been shown and was then cancelled; false when nobody saw it.
        public var wasShown: Bool
    }

    /// One outcome of one gesture: an event (began, recognized, ended, cancelled) or a
    /// trace record's failure.
    public struct Mark: Equatable, Sendable {
        public var t: Microseconds
        public var gesture: Int
        public var state: GestureState
        /// Screen px: the event's centroid; for a failure, the centroid of the contacts
        /// down at that moment (the trace carries no position).
        public var x: Double
        public var y: Double
        /// Why, from the trace (failures and recognitions), or nil.
        public var reason: String?
    }

    /// The recording's file, its device name, and the screen's size in mm per px on it.
    public var path: String
    public var deviceName: String
    public var contacts: [ContactTrace]
    public var marks: [Mark]
    /// Microseconds from the first to the last event.
    public var duration: Microseconds
    /// The device's unit warning (`DeviceUnitsWarning`, worded), if any.
    public var warning: String?
    /// The device as the pipeline maps it (output, mm per px).
    public var geometry: DeviceGeometry

    /// Replays `recording` through `configuration` as `gesturectl replay` does, keeping the
    /// contacts and the outcomes. Nil when libmtdev cannot take a protocol-A device.
    public init?(configuration: Configuration, recording: EvemuRecording, path: String) {
        let pipeline = GesturePipeline(configuration: configuration)
        pipeline.engine.traceEnabled = true
        guard let replay = VirtualReplay(recording: recording, pipeline: pipeline),
            let device = pipeline.devices.first, let geometry = pipeline.geometry(of: device.id)
        else { return nil }
        pipeline.reportsFiltered = true
        let collector = Collector(
            model: configuration.model, origin: replay.origin, geometry: geometry, normalizer: device.normalizer)
        var sink = collector
        replay.run(into: &sink) { _ in collector.endStep() }
        collector.endStep()
        var marks = collector.marks
        let model = configuration.model
        // A failure has no position of its own: where the contacts on its view were then.
        for i in marks.indices where marks[i].x.isNaN {
            let view = model.views[model.gestures[marks[i].gesture].view].frame
            let (x, y) = Self.centroid(of: collector.contacts, at: marks[i].t, preferring: view)
            marks[i].x = x
            marks[i].y = y
        }
        marks.sort { $0.t < $1.t }
        self.path = path
        self.deviceName = recording.info.name
        self.contacts = collector.contacts
        self.marks = marks
        self.duration = (recording.events.last?.time ?? replay.origin) - replay.origin
        self.warning = replay.warning
        self.geometry = geometry
    }

    /// Takes the replay's stream: each frame's contacts from the normalizer (palms included),
    /// the filtered contacts' rules, the events and failures as marks (a step's failures
    /// after its events). A class: the replay's sink and its step hook are the same one.
    private final class Collector: PipelineSink {
        let model: GestureModel
        let origin: Microseconds
        let geometry: DeviceGeometry
        let normalizer: TouchNormalizer
        var frames = 0
        var contacts: [ContactTrace] = []
        var live: [Int32: Int] = [:]  // tracking id -> index in contacts
        var marks: [Mark] = []
        /// The step's failures, marked at its end.
        var failures: [Mark] = []
        /// The step's transitions: an event's reason is its latest one.
        var records: [TraceRecord] = []

        init(model: GestureModel, origin: Microseconds, geometry: DeviceGeometry, normalizer: TouchNormalizer) {
            self.model = model
            self.origin = origin
            self.geometry = geometry
            self.normalizer = normalizer
            frames = normalizer.counters.frames
        }

        /// Before each step and at the end: the last step's frame and failures are taken.
        func endStep() {
            takeFrame()
            marks += failures
            failures.removeAll()
            records.removeAll()
        }

        /// A step's frame is taken before its outputs.
        func takeFrame() {
            guard normalizer.counters.frames != frames else { return }
            frames = normalizer.counters.frames
            let frame = normalizer.frame
            for contact in frame.contacts {
                let p = geometry.screenPoint(normalizedX: contact.normalizedX, normalizedY: contact.normalizedY)
                let point = Point(t: frame.time - origin, x: p.x, y: p.y)
                if contact.phase == .began || live[contact.id] == nil {
                    live[contact.id] = contacts.count
                    contacts.append(ContactTrace(trackingID: contact.id, points: [point], end: .cancelled))
                } else if let index = live[contact.id], contacts[index].points.last != point {
                    contacts[index].points.append(point)
                }
                if contact.phase.isTerminal, let index = live.removeValue(forKey: contact.id) {
                    contacts[index].end = contact.phase
                }
            }
        }

        func receive(_ output: PipelineOutput) {
            takeFrame()
            switch output {
            case .filtered(let f, _):
                // The stage judges a contact by its frames so far: it is among the traces already.
                let t = f.time - origin
                if let i = contacts.lastIndex(where: { $0.trackingID == f.id && ($0.points.first?.t ?? .max) <= t }) {
                    contacts[i].filtered = Filtered(rule: f.rule, wasShown: f.wasShown)
                }
            case .trace(let record):
                records.append(record)
                if record.to == .failed {
                    failures.append(
                        Mark(
                            t: record.time - origin, gesture: record.gesture, state: .failed, x: .nan, y: .nan,
                            reason: record.reason.describe(in: model)))
                }
            case .event(let event) where event.state != .changed:
                let reason = records.last(where: { $0.gesture == event.gesture && $0.to == event.state })?.reason
                marks.append(
                    Mark(
                        t: event.time - origin, gesture: event.gesture, state: event.state,
                        x: event.x, y: event.y, reason: reason?.describe(in: model)))
            // The panel's health and the runtime are not drawn.
            case .event, .paced, .health, .contact, .runtime, .applicationTouch, .idle: break
            }
        }
    }

    /// The centroid at `t` of the contacts down then that began inside `view` (or of all
    /// contacts down then); with none down (a timer's failure), where the last contact
    /// that began inside the view lifted; else the view's centre.
    static func centroid(of contacts: [ContactTrace], at t: Microseconds, preferring view: Rect) -> (Double, Double) {
        var inside: [Point] = []
        var all: [Point] = []
        var lastLift: Point?
        for contact in contacts {
            guard let first = contact.points.first, let last = contact.points.last, first.t <= t else { continue }
            if last.t < t {
                if view.contains(x: first.x, y: first.y), last.t >= lastLift?.t ?? .min { lastLift = last }
                continue
            }
            let here = contact.points.last(where: { $0.t <= t }) ?? first
            all.append(here)
            if view.contains(x: first.x, y: first.y) { inside.append(here) }
        }
        let chosen = inside.isEmpty ? all : inside
        guard !chosen.isEmpty else {
            return lastLift.map { ($0.x, $0.y) } ?? (view.x + view.width / 2, view.y + view.height / 2)
        }
        let n = Double(chosen.count)
        return (chosen.reduce(0) { $0 + $1.x } / n, chosen.reduce(0) { $0 + $1.y } / n)
    }
}
