#!/bin/sh
# Instructions per frame of one BenchProfile scenario, counted by callgrind: deterministic
# where wall-clock figures on a shared machine move by 20 % from run to run.
#   instructions-per-frame.sh [SCENARIO]     (default generated-10c_32g-8v)
# Runs BenchProfile at two lengths and divides the difference, so start-up and warm-up cancel.
set -eu
profile=${BENCH_PROFILE:-.build-bench/release/BenchProfile}
scenario=${1:-generated-10c_32g-8v}
[ -x "$profile" ] || { echo "$profile is missing: make bench-tools" >&2; exit 1; }
plain=$(mktemp)
trap 'rm -f "$plain"' EXIT
# valgrind cannot read the DWARF 5 the Swift compiler writes; the symbol table is enough.
strip --strip-debug -o "$plain" "$profile"
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$plain" "$scenario" "$1" 2>&1 |
        sed -n 's/.*Collected : //p'
}
# BenchProfile N runs a warm-up of N frames (up to a million), then N more.
short=$(count 20000)
long=$(count 40000)
echo "$scenario: $(( (long - short) / 40000 )) instructions per frame"
