# shellcheck shell=dash disable=SC2034 # used by the scenario files
# The guest harness (busybox ash, sourced): checks into the summary, touchscreens through
# uinput, an independent reader of their events, replays. Every wait polls with a ceiling.

RESULTS=${RESULTS:-/results}
SUMMARY=$RESULTS/summary.tsv
SCENARIO=setup

# One line per check: scenario, check, pass|fail, detail (tab-separated, for run.sh).
record() { # CHECK pass|fail DETAIL
  # The summary holds one line per check: a detail's newlines and tabs become spaces
  # (a multi-line detail used to read back as extra, failed checks).
  _record_detail=$(printf '%s' "$3" | tr '\n\t' '  ')
  printf '%s\t%s\t%s\t%s\n' "$SCENARIO" "$1" "$2" "$_record_detail" >> "$SUMMARY"
  echo "vm: [$SCENARIO] $2: $1${_record_detail:+ ($_record_detail)}"
}

check() { # CHECK DETAIL COMMAND...: pass when COMMAND succeeds
  _name=$1 _detail=$2; shift 2
  if "$@"; then record "$_name" pass "$_detail"; else record "$_name" fail "$_detail"; fi
}

expect_eq() { # CHECK EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then record "$1" pass "$3"; else record "$1" fail "expected $2, got $3"; fi
}

# Artifacts are written to tmpfs while the scenario runs and copied to the results share
# at its end: writes to 9p are slow enough under emulation to make a reader drop events
# (SYN_DROPPED) and to slow a daemon that logs.
# `make vm-test VM_ONLY=REGEX` runs only the scenarios whose names match (vm.only=).
VM_ONLY=$(sed -n 's/.*vm\.only=\([^ ]*\).*/\1/p' /proc/cmdline)

begin_scenario() { # NAME: a fresh folder for its artifacts; fails for a filtered-out one
  [ -z "$VM_ONLY" ] || echo "$1" | grep -qE "$VM_ONLY" || return 1
  SCENARIO=$1
  SCENARIO_DIR=/tmp/scenarios/$1
  rm -rf "$SCENARIO_DIR" && mkdir -p "$SCENARIO_DIR"
  echo "vm: --- $1"
}

end_scenario() {
  cp -r "$SCENARIO_DIR" "$RESULTS/"
}

wait_for() { # SECONDS COMMAND...: poll every 20 ms until COMMAND succeeds
  _deadline=$(( $(date +%s) + $1 + 1 )); shift
  until "$@"; do
    [ "$(date +%s)" -lt "$_deadline" ] || return 1
    sleep 0.02
  done
}

fd_open() { # PID PATH: PID holds PATH open
  ls -l "/proc/$1/fd" 2>/dev/null | grep -q " $2\$"
}

# The description part of a recording or .desc (evemu-device wants no events).
description_of() { # FILE -> path of a description-only copy
  _d=/tmp/desc.$(basename "$1")
  grep -v '^E:' "$1" > "$_d"
  echo "$_d"
}

# The events alone, as evemu-play reads them.
events_of() { # FILE -> path of an events-only copy
  _e=/tmp/events.$(basename "$1")
  grep '^E:' "$1" > "$_e"
  echo "$_e"
}

# A touchscreen through uinput; killing its evemu-device process unplugs it. Waits until
# udev has initialized it (libinput ignores devices udev never saw).
device_create() { # DESCFILE -> DEV_PID DEV_NODE DEV_NAME
  _out=/tmp/evemu-device.$SCENARIO.$$
  rm -f "$_out" # a second device in one scenario must not read the first one's node
  evemu-device "$(description_of "$1")" > "$_out" 2>&1 &
  DEV_PID=$!
  wait_for 5 grep -qs ': /dev/input/event' "$_out" || { cat "$_out"; return 1; }
  DEV_NODE=$(sed -n 's|^.*: \(/dev/input/event[0-9]*\)$|\1|p' "$_out")
  DEV_NAME=$(sed -n 's|^\(.*\): /dev/input/event[0-9]*$|\1|p' "$_out")
  _devnum=$(cat "/sys/class/input/${DEV_NODE##*/}/dev")
  wait_for 5 grep -q '^E:ID_INPUT_TOUCHSCREEN=1' "/run/udev/data/c$_devnum" || {
    echo "vm: udev never marked $DEV_NODE as a touchscreen"; return 1; }
}

device_remove() { # unplug the current device
  kill "$DEV_PID" 2>/dev/null; wait "$DEV_PID" 2>/dev/null
  wait_for 5 test ! -e "$DEV_NODE"
}

# evtest reads the device independently of the daemons and prints each event's kernel
# time (CLOCK_REALTIME), which is what latencies are measured from.
reader_start() { # LOGFILE
  evtest "$DEV_NODE" > "$1" 2>&1 &
  READER_PID=$!
  wait_for 5 fd_open "$READER_PID" "$DEV_NODE"
}

reader_stop() {
  kill "$READER_PID" 2>/dev/null; wait "$READER_PID" 2>/dev/null
}

# Kernel times from the reader's log (after reader_stop: evtest writes it at exit).
first_touch_time() { # LOG: the first new contact
  awk -F'[ ,]+' '/ABS_MT_TRACKING_ID\), value [0-9]/ { print $3; exit }' "$1"
}
last_event_time() { # LOG
  awk -F'[ ,]+' '/^Event: time/ { t = $3 } END { print t }' "$1"
}

replay() { # EVENTSFILE
  evemu-play "$DEV_NODE" < "$(events_of "$1")"
}

# Gone, or a zombie waiting for our `wait`.
exited() { # PID
  [ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null
}

alive() { ! exited "$1"; }

# SIGTERM, then SIGKILL when it outlives the grace; fails when SIGKILL was needed.
stop_process() { # PID
  kill "$1" 2>/dev/null
  if wait_for 3 exited "$1"; then wait "$1" 2>/dev/null; return 0; fi
  kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null
  return 1
}

# Children of PID that exited and were never reaped.
zombie_children() { # PID
  for _s in /proc/[0-9]*/stat; do
    awk -v p="$1" '$4 == p && $3 == "Z" { print $1 }' "$_s" 2>/dev/null
  done
}

# Resident and peak resident size of a process, in kB.
rss_of() { # DAEMON PID
  awk -v d="$1" -v s="$SCENARIO" '/^VmRSS/ { r = $2 } /^VmHWM/ { h = $2 }
    END { printf "%s\t%s\t%s\t%s\n", d, s, r, h }' "/proc/$2/status" >> "$RESULTS/rss.tsv"
}
