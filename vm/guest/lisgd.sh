# shellcheck shell=dash disable=SC2016 # eval and lisgd expand these later, on purpose
# lisgd, the peer (Debian's 0.3.7, libinput-based), on the same devices and replays as
# gestured. Its outcomes on the real recordings are the ones in docs/BENCHMARKS.md,
# "Side by side with lisgd"; on the synthetic streams every swipe is well inside
# its thresholds (-t 125 px, -r 15 degrees, -m as given).

# Each -g binding appends "TIME NAME" to the case's log; ash expands $EPOCHREALTIME when
# lisgd's system() runs the command. lisgd splits -g on commas: the command has none.
lisgd_binding() { # FINGERS DIRECTION LOG
  echo "$1,$2,*,*,R,"'echo $EPOCHREALTIME'" $1F_$2 >> $3"
}

count_lines() { # FILE: lines, 0 when absent
  if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi
}

# Replays EVENTS REPEATS times to lisgd on a device from DESC and checks that it ran
# exactly EXPECTED ("NAME=COUNT ...", nothing else).
lisgd_case() { # CASE DESC EVENTS REPEATS WIDTH HEIGHT TIMEOUT_MS FINGERS EXPECTED
  begin_scenario "lisgd-$1" || return
  _desc=$2 _events=$3 _repeats=$4 _width=$5 _height=$6 _timeout=$7 _fingers=$8 _expected=$9
  _log=$SCENARIO_DIR/lisgd-actions.log
  : > "$_log"
  device_create "$_desc" || { record "device created" fail "evemu-device $_desc"; end_scenario; return; }
  set -- # the -g bindings, as separate words
  for _dir in LR RL UD DU; do set -- "$@" -g "$(lisgd_binding "$_fingers" "$_dir" "$_log")"; done
  lisgd -d "$DEV_NODE" -w "$_width" -h "$_height" -m "$_timeout" "$@" > "$SCENARIO_DIR/lisgd.log" 2>&1 &
  _pid=$!
  wait_for 5 fd_open "$_pid" "$DEV_NODE" || record "lisgd opened the device" fail "see lisgd.log"
  reader_start "$SCENARIO_DIR/events.log"
  _n=0
  while [ "$_n" -lt "$_repeats" ]; do replay "$_events"; _n=$((_n + 1)); sleep 0.3; done
  _total=0
  for _e in $_expected; do _total=$((_total + ${_e#*=})); done
  wait_for 3 test "$(count_lines "$_log")" -ge "$_total"
  sleep 1 # room for an unexpected extra action: lisgd once took 0.5 s under emulation
  reader_stop
  rss_of lisgd "$_pid"
  stop_process "$_pid"
  device_remove
  awk '{ printf "%s\tlisgd\t%s\trecognized\n", $1, $2 }' "$_log" > "$SCENARIO_DIR/actions.tsv"
  for _e in $_expected; do
    expect_eq "lisgd ran ${_e%=*}" "${_e#*=}" "$(grep -c " ${_e%=*}\$" "$_log")"
  done
  expect_eq "lisgd ran nothing else" "$_total" "$(count_lines "$_log")"
  end_scenario
}

lisgd_scenarios() {
  R=/recordings
  # Synthetic swipes, ten each (the latency percentiles).
  lisgd_case elan-swipe-right "$R/elan-touchscreen-04f3-010c-asus-n550jk.desc" \
    "$R/synth-elan-swipe-right.events" 1 1920 1080 800 1 "1F_LR=10"
  lisgd_case dell-swipe-down-3f "$R/dell-canvas-advanced-silicon-touch-2-4-5-finger.evemu" \
    "$R/synth-dell-swipe-down-3f.events" 1 1920 1080 800 3 "3F_UD=10"
  # Real recordings, replayed three times each. They last 570 and 754 ms; replays on a
  # busy host stretched them to 1020 ms, past lisgd's default -m 800: -m 1500 keeps them
  # inside (lisgd times gestures with the kernel's event times, so only the replay counts).
  lisgd_case atmel-4f-drag-down "$R/atmel-maxtouch-4-finger-drag-down.evemu" \
    "$R/atmel-maxtouch-4-finger-drag-down.evemu" 3 800 480 1500 4 "4F_UD=3"
  lisgd_case ep0430m09-2f-scroll "$R/ep0430m09-2-finger-scroll-down.evemu" \
    "$R/ep0430m09-2-finger-scroll-down.evemu" 3 1280 768 1500 2 "2F_DU=3"
  # A fling at 332.8 degrees: outside both lisgd's vertical and diagonal windows.
  lisgd_case pixel-fling "$R/google-pixel-tablet-nvt-1-finger-swipe.evemu" \
    "$R/google-pixel-tablet-nvt-1-finger-swipe.evemu" 3 1600 2560 800 1 ""
}
