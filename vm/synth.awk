# Writes an evemu event stream (E: lines) from a few gesture primitives, one per line,
# for scenarios no real recording shows. Coordinates are the device's units, times in
# seconds; frames come every 10 ms as from a 100 Hz panel. A stationary finger sends
# nothing between down and up, as real panels do.
#   stroke T0 DUR N X0 Y0 DX DY SPACING [open]  N fingers side by side, moving by DX,DY
#                                                ("open": the fingers never lift)
#   circle T0 DUR CX CY R0 R1 A0 A1             two fingers opposite on a circle, radius
#                                                R0->R1, angle A0->A1 degrees (pinch, rotation)
#   tap T0 DUR X Y                               one finger down, still, up
#   touch T0 DUR SLOT X Y                        one more finger in SLOT down, still, up,
#                                                while the others stay down
#   lift T N                                     slots 0..N-1 lift (ends an "open" stroke)
#   move T SLOT X Y                              the finger down in SLOT reports X,Y (no new id)
function ev(t, type, code, value) { printf "E: %.6f %04x %04x %d\n", t + 0.000001, type, code, value }
function syn(t) { ev(t, 0, 0, 0) }
function contact(t, slot, x, y, first) {
  ev(t, 3, 47, slot)
  if (first) ev(t, 3, 57, next_id++)
  ev(t, 3, 53, int(x + 0.5)); ev(t, 3, 54, int(y + 0.5))
  if (slot == 0) { ev(t, 3, 0, int(x + 0.5)); ev(t, 3, 1, int(y + 0.5)) }
}
function down_key(t) { ev(t, 1, 330, 1) }
function lift(t, n,    i) {
  for (i = 0; i < n; i++) { ev(t, 3, 47, i); ev(t, 3, 57, -1) }
  ev(t, 1, 330, 0); syn(t)
}
function stroke(t0, dur, n, x0, y0, dx, dy, sp, open,    f, frames, k, i, t) {
  frames = int(dur / 0.01 + 0.5)
  for (k = 0; k <= frames; k++) {
    f = k / frames; t = t0 + k * 0.01
    for (i = 0; i < n; i++) contact(t, i, x0 + i * sp + f * dx, y0 + f * dy, k == 0)
    if (k == 0) down_key(t)
    syn(t)
  }
  if (open != "open") lift(t0 + dur + 0.01, n)
}
function circle(t0, dur, cx, cy, r0, r1, a0, a1,    f, frames, k, r, a, t) {
  frames = int(dur / 0.01 + 0.5)
  for (k = 0; k <= frames; k++) {
    f = k / frames; t = t0 + k * 0.01
    r = r0 + f * (r1 - r0); a = (a0 + f * (a1 - a0)) * 3.14159265358979 / 180
    contact(t, 0, cx + r * cos(a), cy + r * sin(a), k == 0)
    contact(t, 1, cx - r * cos(a), cy - r * sin(a), k == 0)
    if (k == 0) down_key(t)
    syn(t)
  }
  lift(t0 + dur + 0.01, 2)
}
function tap(t0, dur, x, y) {
  contact(t0, 0, x, y, 1); down_key(t0); syn(t0)
  lift(t0 + dur, 1)
}
function touch(t0, dur, slot, x, y) {
  contact(t0, slot, x, y, 1); syn(t0)
  ev(t0 + dur, 3, 47, slot); ev(t0 + dur, 3, 57, -1); syn(t0 + dur)
}
BEGIN { next_id = 100 }
/^[ \t]*(#|$)/ { next }
$1 == "stroke" { stroke($2, $3, $4, $5, $6, $7, $8, $9, $10); next }
$1 == "circle" { circle($2, $3, $4, $5, $6, $7, $8, $9); next }
$1 == "tap" { tap($2, $3, $4, $5); next }
$1 == "touch" { touch($2, $3, $4, $5, $6); next }
$1 == "lift" { lift($2, $3); next }
$1 == "move" { contact($2, $3, $4, $5, 0); syn($2); next }
{ printf "synth: line %d: unknown primitive '%s' (stroke, circle, tap, touch, lift, move)\n", NR, $1 > "/dev/stderr"; exit 1 }
