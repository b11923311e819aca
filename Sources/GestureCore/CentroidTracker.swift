/// The translation of a set of contacts' centroid, re-baselined whenever the set changes so
/// a finger added or lifted never makes it jump (Flutter's `scale.dart` does the same).
struct CentroidTracker {
    private var set: ContactMask = 0
    private var originX = 0.0, originY = 0.0
    private var originMMX = 0.0, originMMY = 0.0
    private var lastTime: Microseconds = 0
    /// Screen px since `start`.
    private(set) var translationX = 0.0, translationY = 0.0
    /// The same in mm.
    private(set) var translationMMX = 0.0, translationMMY = 0.0
    /// px per second over the last frame that moved.
    private(set) var velocityX = 0.0, velocityY = 0.0

    var distanceMM: Double { length(translationMMX, translationMMY) }

    /// Follows `mask` (the contacts still down) at `time`.
    mutating func track(_ contacts: ContactTable, _ mask: ContactMask, at time: Microseconds) {
        guard mask != 0 else { return }
        let c = contacts.centroid(mask), m = contacts.centroidMM(mask)
        if mask != set {
            originX = c.x - translationX
            originY = c.y - translationY
            originMMX = m.x - translationMMX
            originMMY = m.y - translationMMY
            set = mask
        }
        let tx = c.x - originX, ty = c.y - originY
        if time > lastTime, set != 0 {
            let dt = Double(time - lastTime) / 1_000_000
            if tx != translationX || ty != translationY || dt > 0.05 {
                velocityX = (tx - translationX) / dt
                velocityY = (ty - translationY) / dt
            }
        }
        translationX = tx
        translationY = ty
        translationMMX = m.x - originMMX
        translationMMY = m.y - originMMY
        lastTime = time
    }

    /// Makes the current position the zero of the translation.
    mutating func rebase() {
        originX += translationX
        originY += translationY
        originMMX += translationMMX
        originMMY += translationMMY
        translationX = 0
        translationY = 0
        translationMMX = 0
        translationMMY = 0
    }
}
