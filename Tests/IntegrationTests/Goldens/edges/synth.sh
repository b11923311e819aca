#!/usr/bin/env bash
# The edge-case recordings of EdgeGoldenTests, made with vm/synth.awk on a panel of our own:
# an IR frame of 16384 x 16384 values, 512 x 287 mm (32 and 57 units/mm), 10 slots.
# Usage: synth.sh (rewrites the *.evemu files beside it; then regenerate the goldens, see
# EdgeGoldenTests).
set -euo pipefail
cd "$(dirname "$0")"
AWK=../../../../vm/synth.awk

header() {
  cat <<'DESC'
# EVEMU 1.3
# gestured's synthetic IR frame (Tests/IntegrationTests/Goldens/edges/synth.sh)
N: gestured synthetic IR frame
I: 0003 0000 0000 0000
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
A: 00 0 16383 0 0 32
A: 01 0 16383 0 0 57
A: 2f 0 9 0 0 0
A: 35 0 16383 0 0 32
A: 36 0 16383 0 0 57
A: 39 0 65535 0 0 0
DESC
}

write() { # NAME, synth.awk primitives on stdin
  { header; awk -f "$AWK"; } > "$1.evemu"
}

# One finger from each edge, starting on the axis' extreme value (0 or 16383), 80 mm
# inwards in 300 ms; then one from beyond the right edge (16500, as panels report).
printf '%s\n' \
  "stroke 0 0.30 1 16383 8192 -2560 0 0" \
  "stroke 1 0.30 1 0 8192 2560 0 0" \
  "stroke 2 0.30 1 8192 0 0 4560 0" \
  "stroke 3 0.30 1 8192 16383 0 -4560 0" \
  "stroke 4 0.30 1 16500 8192 -2560 0 0" | write edge-swipes
# A finger resting 150 ms on the right border without moving (a bezel touch), then a tap
# in the middle.
printf '%s\n' "tap 0 0.15 16383 8192" "tap 1 0.08 8192 8192" | write bezel-tap
# A finger landing on the right border, resting 200 ms, then swiping 80 mm in.
{
  echo "stroke 0 0.01 1 16383 8192 0 0 0 open"
  for k in $(seq 1 30); do printf 'move %.2f 0 %d 8192\n' "$(echo "0.20 + $k * 0.01" | bc)" $((16383 - k * 85)); done
  echo "lift 0.51 1"
} | write bezel-swipe
# A drag 20 mm right in 200 ms with one report 80 mm off its path, back on it in the next
# frame (an outlier); then at 1 s a drag whose report jumps 80 mm and stays (a new stroke).
{
  echo "stroke 0 0.20 1 4000 8192 640 0 0 open"
  echo "move 0.21 0 7232 8192"
  for k in $(seq 2 20); do printf 'move %.2f 0 %d 8192\n' "$(echo "0.20 + $k * 0.01" | bc)" $((4640 + k * 32)); done
  echo "lift 0.41 1"
  echo "stroke 1 0.20 1 4000 4096 640 0 0 open"
  for k in $(seq 1 20); do printf 'move %.2f 0 %d 4096\n' "$(echo "1.20 + $k * 0.01" | bc)" $((7200 + k * 32)); done
  echo "lift 1.41 1"
} | write outlier-drag
