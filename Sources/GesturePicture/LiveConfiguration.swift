import ConfigModel
import GestureControl
import GestureCore

extension Configuration {
    /// The running daemon's views and gestures over this config: frames and `enabled` from
    /// its status, by name (a name the daemon does not have stays as configured). What
    /// `gesturectl render --live` and the web bridge's live view draw.
    public mutating func apply(_ status: DaemonStatus) {
        for view in status.views where view.frame.count == 4 {
            guard let v = model.views.firstIndex(where: { $0.name == view.name }) else { continue }
            model.views[v].frame = Rect(x: view.frame[0], y: view.frame[1], width: view.frame[2], height: view.frame[3])
            model.views[v].enabled = view.enabled
        }
        for gesture in status.gestures {
            guard let g = model.gestures.firstIndex(where: { $0.name == gesture.name }) else { continue }
            model.gestures[g].enabled = gesture.enabled
        }
    }
}
