#!/usr/bin/env bash
# Synthetic evemu streams on real devices' descriptions, for scenarios no recording shows.
# Each keeps at least 25 % away from every gestured and lisgd threshold, since replays
# run up to 20 % slow under emulation (margins in the comments; gestured's defaults from
# GestureDefaults (docs/SEMANTICS.md), lisgd's -t 125 px over a 1920x1080 screen, -m 800 ms).
# Usage: synth.sh OUTDIR  (writes OUTDIR/synth-*.events)
set -euo pipefail
cd "$(dirname "$0")/.."
. vm/lib.sh

OUT=${1:?usage: synth.sh OUTDIR}

write() { # NAME, primitives on stdin
  awk -f vm/synth.awk > "$OUT/synth-$1.events" || die "synth: cannot write $1"
}

# ELAN 04f3:010c, 3312x1872 at 10 units/mm (331x187 mm), 10 slots.
# One-finger swipe right: 80 mm in 200 ms (swipe: 20 mm early, 10 mm by 0.5 s, at 50 mm/s; lisgd: 464 px, 210 ms).
# Ten strokes a second apart, for latency percentiles.
for i in $(seq 0 9); do echo "stroke $i 0.20 1 800 900 800 0 0"; done | write elan-swipe-right
# One tap, then a double tap: gaps 920 ms and 150 ms against the 350 ms tap interval,
# 0.6 mm apart against 10 mm, presses of 80 ms, no motion.
printf '%s\n' "tap 0 0.08 1600 900" "tap 1.0 0.08 1600 900" "tap 1.23 0.08 1606 903" | write elan-double-vs-single
# Edge pan from the left: starts 1 mm from the edge (margin 5 mm), 60 mm right in 300 ms.
for i in 0 1 2; do echo "stroke $i 0.30 1 10 900 600 0 0"; done | write elan-edge-left
# Rotation: two fingers 60 mm apart turn 90 degrees clockwise in 600 ms (threshold 0.1 rad),
# distance constant.
echo "circle 0 0.6 1656 936 300 300 0 90" | write elan-rotate
# A drag that never lifts: unplugged mid-gesture. 40 mm in 300 ms (pan threshold 1.6 mm).
echo "stroke 0 0.30 1 800 900 400 0 0 open" | write elan-drag-open
# ... and the lift that ends it later (slot 0), played on its own.
echo "lift 0 1" | write elan-lift
# Three fingers held still for 1.0 s, 30 mm apart (a 3-finger long press of 0.5 s; the
# fingers do not move at all against 10 pt).
echo "stroke 0 1.0 3 1200 900 0 0 300" | write elan-hold-3f
# The shipped config's wake (systemd tier, the ELAN panel over its 1920x1080 screen): a
# double tap in the top-right corner (x >= 90 %, y <= 10 %), presses of 100 ms against
# min_press 60 ms, 150 ms apart against tap_interval 350 ms, on one spot.
printf '%s\n' "tap 0 0.1 3150 90" "tap 0.25 0.1 3150 90" | write elan-wake-double-tap

# Touch health (vm/guest/delivery.sh, config delivery-health.toml: min_contact 250 ms,
# jump 40 mm, stuck_after 1 s). A jump: one finger drags 20 mm right in 200 ms, then
# reports 80 mm further on (margin 100 %), drags on 10 mm from there and lifts. The jump's
# report is written right after the previous frame, with no sleep between: a step counts
# as a jump only within 25 ms of the previous one, and a replayer's wake-up on a loaded
# host can come later than that.
{
  echo "stroke 0 0.20 1 800 900 200 0 0 open"
  echo "move 0.20 0 1800 900"
  for k in $(seq 1 10); do printf 'move 0.%03d 0 %d 900\n' $((200 + k * 10)) $((1800 + k * 10)); done
  echo "lift 0.31 1"
} | write elan-jump
# A stuck contact: one finger rests still for 2.8 s, and a second taps elsewhere for
# 400 ms at 2.0 s (after the release at 1 s, margin 100 %; 400 ms against the 250 ms of
# a ghost), while the first is still down.
printf '%s\n' "stroke 0 0.01 1 1600 900 0 0 0 open" "touch 2.0 0.4 1 2400 600" "lift 2.8 1" | write elan-stuck
# The systemd tier's panel reset (systemd-panel-reset.toml: min_contact 250 ms, noisy
# above 30 filtered contacts a minute): 40 ghosts, each still for 20 ms, 50 ms apart and
# 6 mm apart along the panel, in 2 s.
for i in $(seq 0 39); do printf 'tap %d.%02d 0.02 %d 900\n' $((i / 20)) $((i % 20 * 5)) $((400 + i * 60)); done |
  write elan-ghosts

# The kiosk-stacks tier (vm/guest/stacks.sh, config stacks-palm.toml): a tap in the middle,
# outside every gesture's view; the edge pan of elan-edge-left once; two taps in the
# gestures-only bottom fifth; a pan of 40 mm in the top-right quarter (its threshold 10 pt);
# that pan held open while a second finger taps the middle, then lifted; a drag in the
# middle that never lifts (gestured is killed under it; elan-lift ends it), ending away
# from the tap's point on both axes: the kernel passes only changed values, and a
# compositor's libinput reading the panel again after the grab knows none from before it.
echo "tap 0 0.08 1000 600" | write stacks-tap
# ... and one on a second panel, away from the first's point and outside every view.
echo "tap 0 0.08 2400 1200" | write stacks-tap-2
echo "stroke 0 0.30 1 10 900 600 0 0" | write stacks-edge
printf '%s\n' "tap 0 0.08 1000 1700" "tap 0.5 0.08 2000 1750" | write stacks-strip
echo "stroke 0 0.30 1 2600 400 -400 0 0" | write stacks-pan
printf '%s\n' "stroke 0 0.30 1 2600 400 -400 0 0 open" "touch 0.6 0.08 1 1000 600" "lift 1.0 1" | write stacks-second
echo "stroke 0 0.30 1 800 700 400 100 0 open" | write stacks-drag-open
# The kiosk quick start's three-finger press (docs/kiosk/gestures.toml: 2 s): three
# fingers 30 mm apart held still for 2.8 s in the middle, outside the edge's margin.
echo "stroke 0 2.8 3 1200 900 0 0 300" | write stacks-hold-3f
# The shipped config's admin swipe (config/gestures.toml, admin_menu: an edge pan from the
# right, its margin 4 mm): 60 mm in from 10 units (1 mm) off the right edge, at half height, away
# from the wake corner (stacks_bridge).
echo "stroke 0 0.30 1 3302 900 -600 0 0" | write stacks-edge-right
# The key sessions (config stacks-keys.toml): a swipe down, 80 mm in 200 ms, in the left
# half away from the edge (as elan-swipe-right); the pan of stacks-pan held, never lifted
# (gestured is killed under it; elan-lift ends it).
echo "stroke 0 0.20 1 600 300 0 800 0" | write stacks-swipe-down
echo "stroke 0 0.30 1 2600 400 -400 0 0 open" | write stacks-pan-open

# Dell Canvas touch, 32767x32767 at 55/98 units/mm (595x334 mm), 5 slots.
# Three-finger swipe down: 60 mm in 250 ms, fingers 30 mm apart (lisgd: 194 px).
for i in $(seq 0 9); do echo "stroke $i 0.25 3 12000 8000 0 5880 1650"; done | write dell-swipe-down-3f
# Long press: 1.2 s against 0.5 s, drifting 0.6 mm against 10 pt (1.6 mm).
echo "stroke 0 1.2 1 16000 16000 27 49 0" | write dell-long-press
# A plain tap of 80 ms.
echo "tap 0 0.08 16000 16000" | write dell-tap

# Advanced Silicon 2149:231c, 32767x32767 at 64/114 units/mm: the shared ghost-burst
# recording's first 2.15 s (102 ghosts: bursts of up to 10 still contacts every 160 ms,
# each lifting after 32-56 ms, the last at 2.10 s; see delivery-health.toml for the
# 250 ms of min_contact), then a genuine tap of 400 ms half a second later.
{
  grep '^E:' "$OUT/hid-devices-advanced-silicon-2149-231c-ghost-touch-bursts.evemu" | awk '$2 < 2.15'
  echo "tap 2.6 0.4 16384 16384" | awk -f vm/synth.awk
} > "$OUT/synth-ghost-bursts-tap.events" || die "synth: cannot write ghost-bursts-tap"

# IRTOUCH 6615:0070, 32767x32767 without resolution (1 pt = 1 screen px), 2 slots.
# Pinch out: finger distance x2.5 in 500 ms (threshold 10 pt), no rotation.
echo "circle 0 0.5 16384 16384 3000 7500 30 30" | write irtouch-pinch-out
