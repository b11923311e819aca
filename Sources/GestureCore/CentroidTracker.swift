/// The translation of a set of contacts' centroid, re-baselined whenever the set changes so
/// a finger added or lifted never makes it jump (Flutter's `scale.dart` does the same).
struct CentroidTracker {
    private var set: ContactMask = 0
    private var originX = 0.0, originY = 0.0
    private var originMMX = 0.0, originMMY = 0.0
    /// Translation taken away by `rebase`, so the velocity's samples stay continuous.
    private var rebasedX = 0.0, rebasedY = 0.0
    private var velocity = VelocityEstimator()
    /// Screen px since `start`.
    private(set) var translationX = 0.0, translationY = 0.0
    /// The same in mm.
    private(set) var translationMMX = 0.0, translationMMY = 0.0
    /// px per second over the recent window (`VelocityEstimator`).
    private(set) var velocityX = 0.0, velocityY = 0.0

    var distanceMM: Double { length(translationMMX, translationMMY) }

    /// Follows `mask` (the contacts still down) at `time`.
    mutating func track(_ contacts: ContactTable, _ mask: ContactMask, at time: Microseconds) {
        guard mask != 0 else { return }
        let c = contacts.centroid(mask)
        let m = contacts.centroidMM(mask)
        if mask != set {
            originX = c.x - translationX
            originY = c.y - translationY
            originMMX = m.x - translationMMX
            originMMY = m.y - translationMMY
            set = mask
        }
        translationX = c.x - originX
        translationY = c.y - originY
        translationMMX = m.x - originMMX
        translationMMY = m.y - originMMY
        velocity.record(time, translationX + rebasedX, translationY + rebasedY)
        (velocityX, velocityY) = velocity.velocity(at: time)
    }

    /// Makes the current position the zero of the translation.
    mutating func rebase() {
        rebasedX += translationX
        rebasedY += translationY
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
