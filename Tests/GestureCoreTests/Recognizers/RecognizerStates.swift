@testable import GestureCore

// Each recognizer state's case name, written out so the state tables compare states as
// values and never through reflection strings.

extension TapRecognizer.State: ProbedState {
    var caseName: String {
        switch self {
        case .idle: "idle"
        case .pressing: "pressing"
        case .betweenTaps: "betweenTaps"
        case .finished: "finished"
        }
    }
}

extension LongPressRecognizer.State: ProbedState {
    var caseName: String {
        switch self {
        case .idle: "idle"
        case .pressing: "pressing"
        case .betweenTaps: "betweenTaps"
        case .active: "active"
        case .finished: "finished"
        }
    }
}

extension SwipeRecognizer.State: ProbedState {
    var caseName: String {
        switch self {
        case .idle: "idle"
        case .tracking: "tracking"
        case .finished: "finished"
        }
    }
}

extension PanRecognizer.State: ProbedState {
    var caseName: String {
        switch self {
        case .idle: "idle"
        case .tracking: "tracking"
        case .active: "active"
        case .finished: "finished"
        }
    }
}

extension TransformRecognizer.State: ProbedState {
    var caseName: String {
        switch self {
        case .idle: "idle"
        case .tracking: "tracking"
        case .active: "active"
        case .finished: "finished"
        }
    }
}
