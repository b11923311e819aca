# shellcheck shell=dash
# Touch delivery through a real kernel: gestured grabs the ELAN panel and
# forwards what its gestures leave to a uinput clone, and libinput itself (Debian's
# libinput-debug-events, what every Wayland compositor builds on) reads the clone. Each
# scenario asserts what libinput reports, what udev makes of the clone, and that the panel
# is grabbed while gestured runs and free after it dies. Uses gestured.sh's harness.

DEBUG_EVENTS=/usr/libexec/libinput/libinput-debug-events
ELAN=$R/elan-touchscreen-04f3-010c-asus-n550jk.desc

clone_node() { status_ok && sed -n 's/.*"virtual": *"\([^"]*\)".*/\1/p' /tmp/status.json | head -n1; }

# gestured with the panel grabbed: CLONE_NODE, udev's verdict on it, libinput reading it.
delivery_begin() { # SCENARIO CONFIG
  gestured_begin "$1" "$2" "$ELAN" || return 1
  wait_for 5 eval '[ -n "$(clone_node)" ]'
  CLONE_NODE=$(clone_node)
  check "status names the virtual touchscreen" "${CLONE_NODE:-none}" test -c "${CLONE_NODE:-/nonexistent}" ||
    { gestured_abort; return 1; }
  _data=/run/udev/data/c$(cat "/sys/class/input/${CLONE_NODE##*/}/dev")
  check "udev: the clone is a touchscreen" "$CLONE_NODE" wait_for 5 grep -q '^E:ID_INPUT_TOUCHSCREEN=1' "$_data"
  check "udev: the clone is no touchpad" "" eval '! grep -q "^E:ID_INPUT_TOUCHPAD=1" "$_data"'
  libinput_start
}

# libinput-debug-events on the clone (or NODE) into libinput.log (or LOG), which
# libinput_count reads.
libinput_start() { # [NODE [LOG]]
  "$DEBUG_EVENTS" --device "${1:-$CLONE_NODE}" > "$SCENARIO_DIR/${2:-libinput.log}" 2>&1 &
  LI_PID=$!
  check "libinput reads ${1:-the clone}" "" wait_for 5 fd_open "$LI_PID" "${1:-$CLONE_NODE}"
}

# libinput writes its log at exit (stdout to a file is buffered): SIGINT ends it cleanly.
libinput_stop() {
  kill -INT "$LI_PID" 2>/dev/null
  wait_for 3 exited "$LI_PID" || kill -9 "$LI_PID" 2>/dev/null
  wait "$LI_PID" 2>/dev/null
}

# evtest tries a grab of its own when it starts, and says so when another one holds (its
# log is written at exit).
expect_panel_grabbed() {
  reader_stop
  check "the panel was grabbed" "" grep -q 'grabbed by another process' "$SCENARIO_DIR/events.log"
}

# The one touch down on the clone ended (up, or cancelled) before the clone went away.
expect_clone_gone_with_its_touch_ended() {
  check "the clone is gone" "$CLONE_NODE" wait_for 5 test ! -e "$CLONE_NODE"
  libinput_stop
  expect_eq "libinput TOUCH_DOWN" 1 "$(libinput_count TOUCH_DOWN)"
  expect_eq "no touch left down (TOUCH_UP + TOUCH_CANCEL)" 1 \
    "$(( $(libinput_count TOUCH_UP) + $(libinput_count TOUCH_CANCEL) ))"
}

# Taps on the panel, read by a fresh evtest into events-after.log.
replay_to_a_new_reader() {
  reader_start "$SCENARIO_DIR/events-after.log"
  replay "$R/synth-elan-double-vs-single.events"
  sleep 0.3
  reader_stop
}

# Sets passthrough in the running config and reloads it.
reload_passthrough() { # true|false
  sed "s/^passthrough = .*/passthrough = $1/" /tmp/gestures.toml > /tmp/gestures-new.toml
  cp /tmp/gestures-new.toml /tmp/gestures.toml && chmod 0644 /tmp/gestures.toml
  check "reload accepted" "" gesturectl reload --socket "$GD_SOCKET"
}

libinput_count() { grep -c " $1 " "$SCENARIO_DIR/${2:-libinput.log}"; }

expect_libinput() { # DOWN UP CANCEL
  expect_eq "libinput TOUCH_DOWN" "$1" "$(libinput_count TOUCH_DOWN)"
  expect_eq "libinput TOUCH_UP" "$2" "$(libinput_count TOUCH_UP)"
  expect_eq "libinput TOUCH_CANCEL" "$3" "$(libinput_count TOUCH_CANCEL)"
}

# Three taps in the middle of the screen, where the edge pan fails at once: each passes
# whole, with no delay to speak of.
scenario_delivery_tap() {
  delivery_begin delivery-tap delivery-edge.toml || return
  replay "$R/synth-elan-double-vs-single.events"; settle
  libinput_stop
  expect_panel_grabbed
  expect_libinput 3 3 0
  expect_gesture edge began 0
  # udev announced the clone long before the replay ended: gestured skipped it silently.
  check "gestured does not log its clone as a new touchscreen" "$CLONE_NODE" \
    eval '! grep -q "touchscreen added: $CLONE_NODE " "$SCENARIO_DIR/gestured.log"'
  gestured_end
}

# Three pans in from the left edge: the application saw each touch go down, then the
# pan began and cancelled it (palm, then release): TOUCH_CANCEL, never TOUCH_UP.
scenario_delivery_edge() {
  delivery_begin delivery-edge delivery-edge.toml || return
  replay "$R/synth-elan-edge-left.events"; settle
  libinput_stop
  expect_panel_grabbed
  expect_gesture edge began 3
  expect_libinput 3 0 3
  gestured_end
}

# A tap, then a double tap, under a double tap: the lone tap arrives whole when the double
# tap fails; the double tap is never seen as taps.
scenario_delivery_wake() {
  delivery_begin delivery-wake delivery-wake.toml || return
  replay "$R/synth-elan-double-vs-single.events"; settle
  libinput_stop
  expect_panel_grabbed
  expect_gesture wake recognized 1
  expect_libinput 3 1 2
  gestured_end
}

# A passthrough = false view over everything: libinput has the device and no touch.
scenario_delivery_strip() {
  delivery_begin delivery-strip delivery-strip.toml || return
  replay "$R/synth-elan-double-vs-single.events"; settle
  libinput_stop
  expect_panel_grabbed
  check "libinput added the clone" "" grep -q DEVICE_ADDED "$SCENARIO_DIR/libinput.log"
  expect_libinput 0 0 0
  gestured_end
}

# Three fingers held for 1 s under a three-finger long press with delays_touches_began:
# the press begins and ends, and the application never sees a touch of it. Then three
# one-finger taps: the press holds each until it fails at the lift, and the tap arrives
# whole (down, up), late.
scenario_delivery_longpress() {
  delivery_begin delivery-longpress delivery-longpress.toml || return
  replay "$R/synth-elan-hold-3f.events"; settle
  expect_gesture press began 1
  expect_gesture press ended 1
  libinput_stop
  check "libinput added the clone" "" grep -q DEVICE_ADDED "$SCENARIO_DIR/libinput.log"
  expect_libinput 0 0 0
  mv "$SCENARIO_DIR/libinput.log" "$SCENARIO_DIR/libinput-press.log"
  libinput_start
  replay "$R/synth-elan-double-vs-single.events"; settle
  libinput_stop
  expect_panel_grabbed
  expect_libinput 3 3 0
  expect_gesture press began 1
  gestured_end
}

# gestured dies with a finger down (SIGTERM, or kill -9): the clone goes away with no
# touch left down for libinput, and the panel is free again for everyone.
delivery_death() { # SCENARIO SIGNAL
  delivery_begin "$1" delivery-edge.toml || return
  replay "$R/synth-elan-drag-open.events"
  sleep 0.5
  # The drag's frames (one per 10 ms) went to the clone: gestured's panel-to-clone delay,
  # from each panel frame's kernel timestamp to the write that the kernel stamps the
  # clone's frame with.
  status_ok
  _p50=$(sed -n 's/.*"delay_us_p50": *\([0-9.]*\).*/\1/p' /tmp/status.json)
  _p99=$(sed -n 's/.*"delay_us_p99": *\([0-9.]*\).*/\1/p' /tmp/status.json)
  _n=$(sed -n 's/.*"delay_frames": *\([0-9.]*\).*/\1/p' /tmp/status.json)
  printf '%s\t%s\t%s\t%s\n' "$SCENARIO" "$_n" "$_p50" "$_p99" >> "$RESULTS/delivery-delay.tsv"
  check "panel-to-clone delay under 50 ms (p99)" "frames ${_n:-?}, p50 ${_p50:-?} us, p99 ${_p99:-?} us" \
    in_range "${_p99:-}" 0 50000
  kill "-$2" "$GD_PID"
  check "gestured gone" "SIG$2" wait_for 5 exited "$GD_PID"
  wait "$GD_PID" 2>/dev/null
  expect_clone_gone_with_its_touch_ended
  expect_panel_grabbed
  replay_to_a_new_reader
  check "the panel is free" "" eval '! grep -q "grabbed by another process" "$SCENARIO_DIR/events-after.log"'
  check "the panel's touches reach others" "" grep -q 'ABS_MT_TRACKING_ID), value [0-9]' "$SCENARIO_DIR/events-after.log"
  stop_process "$MON_PID"
  device_remove
  end_scenario
}

# A drag down on the clone, then the panel is unplugged: the clone goes with no touch
# left down, and gestured lives on.
scenario_delivery_unplug() {
  delivery_begin delivery-unplug delivery-edge.toml || return
  replay "$R/synth-elan-drag-open.events"
  sleep 0.5
  expect_panel_grabbed
  device_remove
  expect_clone_gone_with_its_touch_ended
  check "gestured alive after the unplug" "" alive "$GD_PID"
  stop_process "$MON_PID"
  check "gestured exits on SIGTERM" "within 3 s" stop_process "$GD_PID"
  end_scenario
}

# A drag down on the clone, then a reload that switches passthrough off: the touch ends on
# the clone, the clone goes, and the panel is given back to every reader.
scenario_delivery_reload() {
  delivery_begin delivery-reload delivery-edge.toml || return
  replay "$R/synth-elan-drag-open.events"
  sleep 0.5
  reload_passthrough false
  expect_clone_gone_with_its_touch_ended
  expect_panel_grabbed
  replay_to_a_new_reader
  check "the panel is given back" "" eval '! grep -q "grabbed by another process" "$SCENARIO_DIR/events-after.log"'
  check "status: the panel is no longer grabbed" "" eval 'status_ok && ! grep -q "\"virtual\"" /tmp/status.json'
  gestured_end
}

# A fresh evtest on the panel: does it find the panel grabbed?
panel_grabbed_now() {
  evtest "$DEV_NODE" > "$SCENARIO_DIR/evtest-probe.log" 2>&1 &
  _probe=$!
  wait_for 5 fd_open "$_probe" "$DEV_NODE"
  sleep 0.2
  kill "$_probe" 2>/dev/null; wait "$_probe" 2>/dev/null
  grep -q 'grabbed by another process' "$SCENARIO_DIR/evtest-probe.log"
}

# A drag down on the panel when passthrough comes on: the clone is made at once, the grab
# waits (status says so) while the panel stays free, the drag lifts through the panel
# (libinput on the panel: DOWN, UP), and only then is the panel grabbed; the clone never
# sees the drag, and the taps after it go through the clone alone.
late_grab_checks() {
  wait_for 5 eval '[ -n "$(clone_node)" ]'
  CLONE_NODE=$(clone_node)
  check "status names the virtual touchscreen" "${CLONE_NODE:-none}" test -c "${CLONE_NODE:-/nonexistent}" ||
    { gestured_abort; return 1; }
  check "status: not grabbed while the drag is down" "" grep -q '"grabbed": *false' /tmp/status.json
  check "status: the grab waits for the contact" "" grep -q '"grab": *"waiting for 1 contact to lift"' /tmp/status.json
  check "gestured says the grab waits" "" grep -q 'the grab waits for 1 contact to lift' "$SCENARIO_DIR/gestured.log"
  _panel_li=$LI_PID
  libinput_start "$CLONE_NODE" libinput-clone.log
  check "the panel is free while the drag is down" "" eval '! panel_grabbed_now'
  replay "$R/synth-elan-lift.events"
  check "status: grabbed once the drag lifted" "" wait_for 5 eval 'status_ok && grep -q "\"grab\": *\"taken\"" /tmp/status.json'
  check "the panel is grabbed after the lift" "" panel_grabbed_now
  replay "$R/synth-elan-double-vs-single.events"; settle
  libinput_stop
  LI_PID=$_panel_li
  libinput_stop
  expect_eq "libinput on the panel: the drag's TOUCH_DOWN" 1 "$(libinput_count TOUCH_DOWN)"
  expect_eq "libinput on the panel: the drag's TOUCH_UP" 1 "$(libinput_count TOUCH_UP)"
  expect_eq "libinput on the clone: TOUCH_DOWN (the taps only)" 3 "$(libinput_count TOUCH_DOWN libinput-clone.log)"
  expect_eq "libinput on the clone: TOUCH_UP" 3 "$(libinput_count TOUCH_UP libinput-clone.log)"
  expect_eq "libinput on the clone: TOUCH_CANCEL" 0 "$(libinput_count TOUCH_CANCEL libinput-clone.log)"
  gestured_end
}

# The drag starts while passthrough is off; a reload switches it on mid-drag.
scenario_delivery_late_reload() {
  gestured_begin delivery-late-reload delivery-late.toml "$ELAN" || return
  libinput_start "$DEV_NODE"
  replay "$R/synth-elan-drag-open.events"
  sleep 0.3
  reload_passthrough true
  late_grab_checks
}

# The drag starts before gestured does: gestured opens a panel with a contact it never saw
# go down (libevdev's slot state has it).
scenario_delivery_late_start() {
  begin_scenario gestured-delivery-late-start || return
  MON_PID='' GD_PID='' DEV_PID=''
  device_create "$ELAN" || { record "device created" fail "evemu-device"; gestured_abort; return; }
  reader_start "$SCENARIO_DIR/events.log"
  libinput_start "$DEV_NODE"
  replay "$R/synth-elan-drag-open.events"
  sleep 0.3
  gestured_start delivery-edge.toml || { gestured_abort; return; }
  check "status reports the device" "$DEV_NAME" wait_for 5 status_lists "$(name_key "$DEV_NAME")"
  late_grab_checks
}

delivery_scenarios() {
  scenario_delivery_tap
  scenario_delivery_edge
  scenario_delivery_wake
  scenario_delivery_strip
  scenario_delivery_longpress
  delivery_death delivery-sigterm TERM
  delivery_death delivery-kill KILL
  scenario_delivery_unplug
  scenario_delivery_reload
  scenario_delivery_late_reload
  scenario_delivery_late_start
}
