// The pieces of libm the geometry needs. libm is pure computation; importing it here
// keeps every other file of GestureCore on the standard library alone.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Length of the vector (x, y).
@inline(__always) func length(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }

/// Angle of the vector (dx, dy) in radians, in -pi...pi; clockwise positive on a y-down screen.
@inline(__always) func angleOf(dy: Double, dx: Double) -> Double { atan2(dy, dx) }

/// The slope of `angle` (radians): across over along.
@inline(__always) func slope(of angle: Double) -> Double { tan(angle) }

/// `angle` wrapped into -pi...pi, so a frame-to-frame change never jumps by a full turn.
@inline(__always) func wrappedAngle(_ angle: Double) -> Double {
    var a = angle
    while a > .pi { a -= 2 * .pi }
    while a < -.pi { a += 2 * .pi }
    return a
}
