# shellcheck shell=dash disable=SC2016 # eval expands these later, on purpose
# The kiosk-stacks tier (vm/README.md): what the kiosk's application really sees. The
# release's cage, weston (kiosk-shell), sway and (Debian 13) labwc run with wev, a Wayland client that prints every
# wl_touch event it receives, as the application; gestured grabs the ELAN panel (played
# with evemu through uinput) and passes what its gestures leave through the clone, which
# the compositor reads with libinput. Per compositor one session, its steps in a row; each
# step records what wev saw (wev.tsv: compositor, step, events) and checks what it must.
# With "browser" (make vm-test-browser) the session of cog, a browser, under cage instead.
RESULTS=${1:-/results}
. /vm/lib.sh
. /vm/gestured.sh
. /vm/delivery.sh

export XDG_RUNTIME_DIR=/run/xdg
WEV_TSV=$RESULTS/wev.tsv
# What the browser's page got (stacks-cog): compositor, step, events.
PAGE_TSV=$RESULTS/page.tsv
# ELAN 04f3:010c: 0..3312 x 0..1872, 10 units/mm. libinput maps a unit to the output as
# (value - min) * size / (max - min + 1).
PANEL_W=3313 PANEL_H=1873

# What each compositor is given to run wev full screen on one output. cage refuses to run
# as root, so cage and sway run as the kiosk's user, as on a kiosk; wlroots takes its seat
# from seatd (libseat's noop backend never tells wlroots 0.15 the session is
# active); weston 10 as Debian builds it has no libseat launcher: its direct launcher,
# as root on a VT; weston 14 has only libseat's: as root on seatd's seat. labwc (Raspberry
# Pi OS's) as the kiosk's user, its window rule making every window full screen.
compositor_start() { # NAME
  rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 0700 "$XDG_RUNTIME_DIR"
  WEV_LOG=$SCENARIO_DIR/wev.log
  : > "$WEV_LOG" && chmod 0666 "$WEV_LOG"
  case $1 in
    cage)
      chown kiosk:kiosk "$XDG_RUNTIME_DIR"
      LIBSEAT_BACKEND=seatd WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
        as_kiosk 'cage -- stdbuf -oL wev' > "$WEV_LOG" 2> "$SCENARIO_DIR/compositor.log" &
      COMP_PID=$! ;;
    sway)
      # SWAY_OUTPUTS headless outputs (HEADLESS-1, ...: 1280x720 each), SWAY_CONFIG's lines.
      printf '%s\n' 'default_border none' 'default_floating_border none' "${SWAY_CONFIG:-}" \
        "exec stdbuf -oL wev > $WEV_LOG" > /tmp/sway.conf
      chown kiosk:kiosk "$XDG_RUNTIME_DIR"
      LIBSEAT_BACKEND=seatd WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
        WLR_HEADLESS_OUTPUTS=${SWAY_OUTPUTS:-1} \
        as_kiosk 'sway --config /tmp/sway.conf' > "$SCENARIO_DIR/compositor.log" 2>&1 &
      COMP_PID=$! ;;
    labwc)
      mkdir -p /tmp/labwc
      printf '%s\n' '<?xml version="1.0"?>' '<labwc_config><windowRules>' \
        '<windowRule identifier="*" serverDecoration="no"><action name="ToggleFullscreen"/></windowRule>' \
        '</windowRules></labwc_config>' > /tmp/labwc/rc.xml
      echo "stdbuf -oL wev > $WEV_LOG &" > /tmp/labwc/autostart
      chown -R kiosk:kiosk "$XDG_RUNTIME_DIR" /tmp/labwc
      LIBSEAT_BACKEND=seatd WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
        as_kiosk 'labwc --config-dir /tmp/labwc' > "$SCENARIO_DIR/compositor.log" 2>&1 &
      COMP_PID=$! ;;
    weston)
      printf '%s\n' '[core]' 'require-input=false' > /tmp/weston.ini
      case $(weston --version 2>&1) in
        "weston 10."*) _launch="--tty=2 --use-pixman" ;;
        *) _launch="--renderer=pixman" ;;
      esac
      # shellcheck disable=SC2086 # the launcher's options
      LIBSEAT_BACKEND=seatd weston $_launch --config=/tmp/weston.ini --backend=drm-backend.so --shell=kiosk-shell.so \
        --socket=wayland-0 --idle-time=0 > "$SCENARIO_DIR/compositor.log" 2>&1 &
      COMP_PID=$!
      wait_for 20 test -S "$XDG_RUNTIME_DIR/wayland-0" || return 1
      WAYLAND_DISPLAY=wayland-0 stdbuf -oL wev > "$WEV_LOG" 2>&1 &
      WEV_PID=$! ;;
  esac
  # Mapped (the toplevel's configure with the output's size) and the compositor holds the
  # clone open. Slow under emulation on a busy host.
  wait_for 60 grep -qE 'xdg_toplevel\] configure: width: [1-9]' "$WEV_LOG" || { COMP_WHY="no configure"; return 1; }
  wait_for 30 fd_open "$COMP_PID" "$CLONE_NODE" || { COMP_WHY="the clone is not open"; return 1; }
  # The first touch after start: wlroots' compositors announced the seat's touch only
  # around it here, and lost it (the table shows what wev saw of it); the steps wait for
  # the announcement.
  wev_mark; play tap
  expect_wev 'first tap after start' 'nothing|down up'
  # ("capabilities: keyboard touch" with gestured's keyboard)
  wait_for 30 grep -qE 'capabilities:.* touch' "$WEV_LOG" || { COMP_WHY="no touch on the seat"; return 1; }
  sleep 1
  SURFACE_W=$(sed -n 's/.*xdg_toplevel\] configure: width: \([0-9]*\); height: \([0-9]*\).*/\1/p' "$WEV_LOG" | tail -n1)
  SURFACE_H=$(sed -n 's/.*xdg_toplevel\] configure: width: \([0-9]*\); height: \([0-9]*\).*/\2/p' "$WEV_LOG" | tail -n1)
}

compositor_stop() {
  # shellcheck disable=SC2086 # an unset one must vanish
  kill ${WEV_PID:-} "$COMP_PID" 2>/dev/null
  wait_for 5 exited "$COMP_PID" || kill -9 "$COMP_PID" 2>/dev/null
  wait ${WEV_PID:-} "$COMP_PID" 2>/dev/null
}

# The wl_touch events wev printed since the step began, one word each: down, up,
# motion, cancel (frames left out); repeated motions as motion*N.
wev_mark() { WEV_MARK=$(wc -l < "$WEV_LOG"); }
wev_events() {
  tail -n +$((WEV_MARK + 1)) "$WEV_LOG" | sed -n 's/.*wl_touch\] \([a-z]*\).*/\1/p' | grep -v '^frame$' |
    awk '$0 == last && $0 == "motion" { n++; next }
         { flush(); last = $0; n = 1 }
         END { flush(); printf "\n" }
         function flush() { if (last != "") { printf "%s%s%s", sep, last, (n > 1 ? "*" n : ""); sep = " " } }'
}

# What wev saw in this step, in the table and as a check against what it must see.
expect_wev() { # STEP EXPECTED (a regular expression over wev_events)
  _seen=$(wev_events)
  printf '%s\t%s\t%s\n' "$COMPOSITOR" "$1" "${_seen:-nothing}" >> "$WEV_TSV"
  if echo "${_seen:-nothing}" | grep -qxE "$2"; then record "$1: wev saw $2" pass "${_seen:-nothing}"
  else record "$1: wev saw $2" fail "${_seen:-nothing}"; fi
}

# Where the panel's point (X, Y) lies on wev's surface, through a calibration matrix
# (libinput's, in normalized units; identity by default).
surface_point() { # X Y [A B C D E F]
  awk -v x="$1" -v y="$2" -v m="${3:-1 0 0 0 1 0}" -v w="$SURFACE_W" -v h="$SURFACE_H" \
      -v pw="$PANEL_W" -v ph="$PANEL_H" 'BEGIN { split(m, c, " "); u = x / pw; v = y / ph
    printf "%.2f %.2f", (c[1] * u + c[2] * v + c[3]) * w, (c[4] * u + c[5] * v + c[6]) * h }'
}

# The down wev got last in this step lies where the panel's point (X, Y) maps on its
# surface, within 1 px.
expect_down_at() { # STEP X Y [MATRIX]
  _down=$(tail -n +$((WEV_MARK + 1)) "$WEV_LOG" | grep 'wl_touch\] down' | tail -n1)
  _got=$(echo "$_down" | sed -n 's/.*x, y: \([0-9.-]*\), \([0-9.-]*\).*/\1 \2/p')
  _want=$(surface_point "$2" "$3" "${4:-}")
  if [ -n "$_got" ] && echo "$_got $_want" | awk '{ dx = $1 - $3; dy = $2 - $4; exit !(dx * dx <= 1 && dy * dy <= 1) }'
  then record "$1: down at the panel's point" pass "($_got), expected ($_want) on ${SURFACE_W}x$SURFACE_H"
  else record "$1: down at the panel's point" fail "got (${_got:-none}), expected ($_want) on ${SURFACE_W}x$SURFACE_H"; fi
}

# Under emulation on a busy host the compositor may deliver a touch a second after the
# replay: a step ends when wev has printed nothing for 1.5 s (at most 15 s).
wev_settle() {
  _deadline=$(( $(date +%s) + 15 ))
  _lines=$(wc -l < "$WEV_LOG")
  while [ "$(date +%s)" -lt "$_deadline" ]; do
    sleep 1.5
    [ "$(wc -l < "$WEV_LOG")" = "$_lines" ] && return 0
    _lines=$(wc -l < "$WEV_LOG")
  done
}

# A browser under emulation takes seconds to make DOM events of a touch (Chromium more than
# the 1.5 s wev_settle waits for): a browser's step waits until the page has written no
# event line for PAGE_QUIET s, and at most 60 s.
PAGE_QUIET=6
page_settle() {
  _deadline=$(( $(date +%s) + 60 )) _still=0
  _lines=$(grep -c 'touch-counter: event' "$PAGE_LOG")
  while [ "$_still" -lt "$PAGE_QUIET" ] && [ "$(date +%s)" -lt "$_deadline" ]; do
    sleep 1
    _now=$(grep -c 'touch-counter: event' "$PAGE_LOG")
    if [ "$_now" = "$_lines" ]; then _still=$((_still + 1)); else _lines=$_now _still=0; fi
  done
}

play() {
  replay "$R/synth-stacks-$1.events"
  if [ -n "${PAGE_LOG:-}" ]; then page_settle; else wev_settle; fi
}

# gestured with the panel grabbed and its clone made (delivery.sh), config CONFIG.
stacks_gestured() { # CONFIG
  gestured_start "$1" || return 1
  [ -n "${DEV_PID:-}" ] || device_create "$ELAN" || { record "device created" fail "evemu-device"; return 1; }
  wait_for 10 eval '[ -n "$(clone_node)" ] && grep -q "\"grabbed\" *: *true" /tmp/status.json'
  CLONE_NODE=$(clone_node)
  check "gestured grabbed the panel and made its clone" "${CLONE_NODE:-none}" test -c "${CLONE_NODE:-/nonexistent}"
  # The compositor's libinput has taken the clone in (hotplug through udev).
  sleep 1
}

# The device rule's cancel switched by a reload. A new cancel makes a new clone: touches
# reach the compositor once its libinput has taken it in (hotplug through udev; seconds
# under emulation).
reload_cancel() { # release|palm
  sed "s/^cancel = .*/cancel = \"$1\"/" /tmp/gestures.toml > /tmp/gestures-new.toml
  cp /tmp/gestures-new.toml /tmp/gestures.toml && chmod 0644 /tmp/gestures.toml
  check "reload to cancel = \"$1\"" "" gesturectl reload --socket "$GD_SOCKET"
  wait_for 10 eval '[ -n "$(clone_node)" ] && [ "$(clone_node)" != "$CLONE_NODE" ]'
  CLONE_NODE=$(clone_node)
  check "$COMPOSITOR opens the new clone" "$CLONE_NODE" wait_for 30 fd_open "$COMP_PID" "$CLONE_NODE"
  sleep 1
}

stacks_session() { # COMPOSITOR
  COMPOSITOR=$1
  begin_scenario "stacks-$1" || return
  MON_PID='' GD_PID='' DEV_PID='' WEV_PID='' COMP_PID=''
  stacks_gestured stacks-palm.toml || { gestured_abort; return; }
  if ! compositor_start "$1"; then
    record "$1 runs wev" fail "${COMP_WHY:-}; wev's last line: $(tail -n1 "$WEV_LOG")"
    compositor_stop; gestured_abort; return
  fi
  record "$1 runs wev" pass "surface ${SURFACE_W}x$SURFACE_H"

  # A tap outside every gesture's view: down and up where the panel puts it.
  wev_mark; play tap
  expect_wev tap 'down up'
  expect_down_at tap 1000 600
  # An edge pan that holds its touches (delays_touches_began): wev sees nothing.
  wev_mark; play edge
  expect_wev edge-delayed nothing
  expect_gesture edge began 1
  # Taps in a passthrough = false view: nothing.
  wev_mark; play strip
  expect_wev strip nothing
  # A pan with the defaults on its view: the touch goes down, then the pan cancels it.
  wev_mark; play pan
  expect_wev 'pan, cancel = "palm"' 'down( motion(\*[0-9]+)?)?( (cancel|up))?'
  expect_gesture pan began 1

  # The shipped config's cancel.
  reload_cancel release
  wev_mark; play pan
  expect_wev 'pan, cancel = "release"' 'down( motion(\*[0-9]+)?)? up'
  # A second finger elsewhere while the pan holds the first: it reaches the application.
  wev_mark; play second
  expect_wev 'second touch while a pan holds the first' 'down( motion(\*[0-9]+)?)? up down up'
  expect_down_at 'second touch' 1000 600

  # gestured killed with a finger down: what wev sees, then the next tap through the panel.
  wev_mark; play drag-open
  kill -9 "$GD_PID"; wait "$GD_PID" 2>/dev/null
  check "the clone is gone" "$CLONE_NODE" wait_for 5 test ! -e "$CLONE_NODE"
  sleep 1
  replay "$R/synth-elan-lift.events"; wev_settle
  expect_wev 'kill -9 with a finger down' 'down( motion(\*[0-9]+)?)?( (cancel|up))?'
  wev_mark; play tap
  expect_wev 'tap after kill -9 (the panel, ungrabbed)' 'down up'
  expect_down_at 'tap after kill -9' 1000 600
  stop_process "$MON_PID"
  mv "$SCENARIO_DIR/gestured.log" "$SCENARIO_DIR/gestured-killed.log"

  # The same with SIGTERM (what systemctl stop sends): gestured lifts the touch first.
  stacks_gestured stacks-release.toml || { compositor_stop; gestured_abort; return; }
  wev_mark; play drag-open
  stop_process "$GD_PID"
  check "the clone is gone" "$CLONE_NODE" wait_for 5 test ! -e "$CLONE_NODE"
  sleep 1
  replay "$R/synth-elan-lift.events"; wev_settle
  expect_wev 'SIGTERM with a finger down' 'down( motion(\*[0-9]+)?)? up'
  wev_mark; play tap
  expect_wev 'tap after SIGTERM (the panel, ungrabbed)' 'down up'
  stop_process "$MON_PID"

  compositor_stop
  device_remove
  end_scenario
}

# The keys wev got since the step began, in order: the keysym the layout gave each, with
# + for pressed and - for released (wev prints the key line, then its sym line). wev asks
# for a wl_keyboard at each capabilities event (a keyboard that comes or goes makes one),
# and gets each key on every one it holds, with the same serial: a serial counts once.
wev_keys() {
  tail -n +$((WEV_MARK + 1)) "$WEV_LOG" | awk '
    /wl_keyboard\] key:/ { want = 0; match($0, /serial: [0-9]+/); serial = substr($0, RSTART, RLENGTH)
      if (serial in seen) next; seen[serial] = 1; s = ($0 ~ /state: 1/) ? "+" : "-"; want = 1; next }
    /wl_keyboard\] / { want = 0 }
    want && /sym:/ { printf "%s%s%s", sep, $2, s; sep = " "; want = 0 } END { printf "\n" }'
}
expect_keys() { # STEP EXPECTED (a regular expression over wev_keys)
  _seen=$(wev_keys)
  printf '%s\t%s\t%s\n' "$COMPOSITOR" "$1" "${_seen:-nothing}" >> "$WEV_TSV"
  if echo "${_seen:-nothing}" | grep -qxE "$2"; then record "$1: wev got $2" pass "${_seen:-nothing}"
  else record "$1: wev got $2" fail "${_seen:-nothing}"; fi
}
keyboard_node() { status_ok && sed -n 's/.*"keyboard": *{[^}]*"path": *"\([^"]*\)".*/\1/p' /tmp/status.json | head -n1; }

# gestured's keyboard (keys actions) with wev focused: a swipe sends F5, and wev gets the
# keysym; a tap sends KEY_Z, whose keysym is the layout's (German: y, under cage, where
# XKB_DEFAULT_LAYOUT reaches the keymap; sway pins gestured's keyboard to us by its name,
# as docs/CONFIG.md shows: z); a pan holds Shift from began to ended; gestured killed
# (kill -9) under a held Shift leaves it released.
stacks_keys() { # COMPOSITOR
  COMPOSITOR=$1-keys
  begin_scenario "stacks-keys-$1" || return
  MON_PID='' GD_PID='' DEV_PID='' WEV_PID='' COMP_PID=''
  stacks_gestured stacks-keys.toml || { gestured_abort; return; }
  KEYBOARD_NODE=$(keyboard_node)
  check "gestured made its keyboard" "${KEYBOARD_NODE:-none}" test -c "${KEYBOARD_NODE:-/nonexistent}"
  check "its name is \"gestured keyboard\"" "$KEYBOARD_NODE" \
    grep -qx 'N: Name="gestured keyboard"' /proc/bus/input/devices
  _letter=y
  export XKB_DEFAULT_LAYOUT=de
  if [ "$1" = sway ]; then
    SWAY_CONFIG='input "0:0:gestured_keyboard" xkb_layout us'
    _letter=z
  fi
  if ! compositor_start "$1"; then
    record "$1 runs wev" fail "${COMP_WHY:-}; wev's last line: $(tail -n1 "$WEV_LOG")"
    unset XKB_DEFAULT_LAYOUT SWAY_CONFIG
    compositor_stop; gestured_abort; return
  fi
  unset XKB_DEFAULT_LAYOUT SWAY_CONFIG
  record "$1 runs wev" pass "surface ${SURFACE_W}x$SURFACE_H"
  check "wev has the keyboard's focus" "" wait_for 10 grep -q 'wl_keyboard\] enter' "$WEV_LOG"

  _t0=$(date +%s)
  wev_mark; play swipe-down
  expect_keys 'swipe: keys = "f5"' 'F5\+ F5-'
  wait_for 3 test "$(monitor_count reload recognized)" -ge 1
  expect_eq "the swipe was recognized (subscriber)" 1 "$(monitor_count reload recognized)"
  wev_mark; play tap
  expect_keys 'tap: keys = "KEY_Z"' "$_letter\\+ $_letter-"
  # The pan: Shift down at began, up at ended, and wev sees the modifier held between.
  wev_mark; play pan
  expect_keys 'pan: keys = "leftshift", hold = true' 'Shift_L\+ Shift_L-'
  check "wev saw Shift held (depressed modifiers)" "" eval \
    "tail -n +\$((WEV_MARK + 1)) '$WEV_LOG' | grep -q 'depressed: 00000001'"
  expect_eq "the pan began and ended (subscriber)" "1 1" "$(monitor_count drag began) $(monitor_count drag ended)"
  # gestured killed with Shift held: the keyboard goes with the process, and the
  # compositor lets go of what it held.
  wev_mark; play pan-open
  check "Shift is down while the pan holds" "" wait_for 5 eval 'wev_keys | grep -qx "Shift_L+"'
  kill -9 "$GD_PID"; wait "$GD_PID" 2>/dev/null
  check "the keyboard is gone" "$KEYBOARD_NODE" wait_for 5 test ! -e "$KEYBOARD_NODE"
  wev_settle
  expect_keys 'kill -9 with Shift held' 'Shift_L\+ Shift_L-'
  replay "$R/synth-elan-lift.events"; wev_settle
  stop_process "$MON_PID"
  mv "$SCENARIO_DIR/gestured.log" "$SCENARIO_DIR/gestured-killed.log"
  # The same with SIGTERM (what systemctl stop sends): gestured lets go of Shift itself.
  stacks_gestured stacks-keys.toml || { compositor_stop; gestured_abort; return; }
  KEYBOARD_NODE=$(keyboard_node)
  check "$1 opens the new keyboard" "${KEYBOARD_NODE:-none}" wait_for 30 fd_open "$COMP_PID" "${KEYBOARD_NODE:-/nonexistent}"
  wev_mark; play pan-open
  check "Shift is down while the pan holds (again)" "" wait_for 5 eval 'wev_keys | grep -qx "Shift_L+"'
  stop_process "$GD_PID"
  check "the keyboard is gone" "$KEYBOARD_NODE" wait_for 5 test ! -e "$KEYBOARD_NODE"
  wev_settle
  expect_keys 'SIGTERM with Shift held' 'Shift_L\+ Shift_L-'
  replay "$R/synth-elan-lift.events"; wev_settle
  record "keys steps took" pass "$(( $(date +%s) - _t0 )) s"
  stop_process "$MON_PID"
  compositor_stop
  device_remove
  end_scenario
}

# The screen that sleeps and wakes without a click ([idle], docs/CONFIG.md): gestured runs
# stacks-release.toml, wev gets a tap, then a reload adds [idle] (the device rule is the
# same: the clone stays). After `after` without a touch on.sleep runs; the next tap wakes
# the screen: wev sees none of it, on.wake runs, and the tap after it reaches wev.
stacks_idle() { # COMPOSITOR
  COMPOSITOR=$1
  begin_scenario "stacks-idle-$1" || return
  MON_PID='' GD_PID='' DEV_PID='' WEV_PID='' COMP_PID=''
  stacks_gestured stacks-release.toml || { gestured_abort; return; }
  if ! compositor_start "$1"; then
    record "$1 runs wev" fail "${COMP_WHY:-}; wev's last line: $(tail -n1 "$WEV_LOG")"
    compositor_stop; gestured_abort; return
  fi
  record "$1 runs wev" pass "surface ${SURFACE_W}x$SURFACE_H"
  wev_mark; play tap
  expect_wev 'tap before [idle]' 'down up'

  cat /vm/configs/stacks-idle.toml >> /tmp/gestures.toml
  check "reload adds [idle]" "" gesturectl reload --socket "$GD_SOCKET"
  check "the clone stays" "$CLONE_NODE" eval '[ "$(clone_node)" = "$CLONE_NODE" ]'
  _since=$(cut -d' ' -f1 /proc/uptime)
  check "on.sleep ran after 20 s without a touch" "" wait_for 90 test -s "$ACTIONS/slept"
  record "idle after the reload" pass "$(awk -v a="$_since" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f s", b - a }')"
  check "on.sleep got GESTURE_IDLE=idle" "$(cat "$ACTIONS/slept")" grep -qx 'GESTURE_IDLE=idle' "$ACTIONS/slept"
  check "status says idle" "" eval 'status_ok && grep -qE "\"state\" *: *\"idle\"" /tmp/status.json'
  check "the stream says idle (timeout)" "" grep -qE '"idle": *"idle", *"cause": *"timeout"' "$SCENARIO_DIR/monitor.jsonl"

  wev_mark; play tap
  expect_wev 'waking tap' nothing
  check "on.wake ran" "" wait_for 10 test -s "$ACTIONS/woke"
  check "on.wake got GESTURE_IDLE=active" "$(cat "$ACTIONS/woke" 2>/dev/null)" grep -qx 'GESTURE_IDLE=active' "$ACTIONS/woke"
  check "the stream says active (touch)" "" grep -qE '"idle": *"active", *"cause": *"touch"' "$SCENARIO_DIR/monitor.jsonl"
  wev_mark; play tap
  expect_wev 'tap after the wake' 'down up'
  expect_down_at 'tap after the wake' 1000 600
  check "status counts one sleep and one wake" "" eval 'status_ok && grep -qE "\"sleeps\" *: *1([^0-9]|$)" /tmp/status.json && grep -qE "\"wakes\" *: *1([^0-9]|$)" /tmp/status.json && grep -qE "\"state\" *: *\"active\"" /tmp/status.json'
  check "metrics: gestured_idle 0, one sleep, one wake" "" eval 'gesturectl metrics --socket "$GD_SOCKET" > "$SCENARIO_DIR/metrics.txt" && grep -qx "gestured_idle 0" "$SCENARIO_DIR/metrics.txt" && grep -qx "gestured_idle_sleeps_total 1" "$SCENARIO_DIR/metrics.txt" && grep -qx "gestured_idle_wakes_total 1" "$SCENARIO_DIR/metrics.txt"'

  stop_process "$GD_PID"
  stop_process "$MON_PID"
  compositor_stop
  device_remove
  end_scenario
}

# A browser as the application, full screen under cage, on vm/touch-counter.html, which
# writes one console line per touch, pointercancel or click event with the running
# counts; the browser prints console lines on its stderr, so cage's, the browser's and the
# page's lines share one log. cog (WPE WebKit's kiosk browser, its Wayland platform) with
# --enable-write-console-messages-to-stdout (stderr, despite its name); WebKit draws with
# EGL: Mesa's software rasterizer (llvmpipe) over wl_shm, as a kiosk without a GPU driver
# would. Chromium (Debian 13) in kiosk mode on Wayland, as docs/KIOSK.md starts it, plus
# --disable-gpu (the VM has no GPU: software compositing, shared-memory buffers),
# --enable-logging=stderr for the console lines and, for emulation's slowness only,
# --ipc-connection-timeout=600: a helper process (renderer, network service) quits when the
# browser has not taken its connection within 15 s, which under TCG on a loaded host it
# did not, again and again. Chromium's command line is the quick start's unit's
# (docs/kiosk/kiosk-browser.service), its URL replaced by the page.
# (Quoted in the command line: su's shell reads it, and a page's query has '&'.)
BROWSER_PAGE=file:///vm/touch-counter.html
KIOSK_UNIT=/vm/kiosk/kiosk-browser.service
LABWC_AUTOSTART=/vm/kiosk/labwc-autostart
browser_command() { # BROWSER: what cage runs
  case $1 in
    cog) echo "cog --platform=wl --enable-write-console-messages-to-stdout=true '$BROWSER_PAGE'" ;;
    chromium) echo "$(sed -n 's|^ExecStart=/usr/bin/cage [^/]*-- \(.*\) http://localhost:8080/$|\1|p' "$KIOSK_UNIT") $(chromium_vm_arguments)" ;;
  esac
}
# What the VM adds to the quick start's Chromium command lines (above), and the page.
chromium_vm_arguments() { echo "--disable-gpu --enable-logging=stderr --ipc-connection-timeout=600 '$BROWSER_PAGE'"; }
# The browsers keep their profile in the kiosk user's home. WebKit 2.48 (Debian 13) runs
# its web process in bubblewrap, which cannot pivot away from an initramfs root: its
# sandbox is off in the VM (a kiosk has bwrap, a dependency of libwpewebkit-2.0-1). The
# kernel's log of the session (a crashed web process leaves its line there) is kept.
browser_start() { # BROWSER [COMPOSITOR: cage (default), labwc or sway]
  rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 0700 "$XDG_RUNTIME_DIR" && chown kiosk:kiosk "$XDG_RUNTIME_DIR"
  PAGE_LOG=$SCENARIO_DIR/$1.log
  : > "$PAGE_LOG" && chmod 0666 "$PAGE_LOG"
  _started=$(cut -d' ' -f1 /proc/uptime)
  _shell=${2:-cage}
  case $_shell in
    cage) _session="cage -- $(browser_command "$1")" ;;
    # Raspberry Pi OS's desktop (docs/KIOSK.md, section 6): labwc starts the browser from
    # the guide's autostart file, its URL replaced by the page, the VM's flags added. The
    # browser's console lines go where labwc's do.
    labwc)
      mkdir -p /tmp/labwc
      printf '%s\n' '<?xml version="1.0"?>' '<labwc_config/>' > /tmp/labwc/rc.xml
      _line=$(sed -n 's|^\(chromium .*\) URL &$|\1|p' "$LABWC_AUTOSTART")
      [ -n "$_line" ] || { BROWSER_WHY="no chromium line in $LABWC_AUTOSTART"; return 1; }
      echo "$_line $(chromium_vm_arguments) &" > /tmp/labwc/autostart
      chown -R kiosk:kiosk /tmp/labwc
      _session='labwc --config-dir /tmp/labwc' ;;
    # sway 1.10, the one compositor that passes a touch cancel on: the browser full screen
    # from its config, its console lines appended to the page's log.
    sway)
      printf '%s\n' 'default_border none' "exec $(browser_command "$1") >> $PAGE_LOG 2>&1" > /tmp/sway.conf
      _session='sway --config /tmp/sway.conf' ;;
  esac
  HOME=/home/kiosk LIBSEAT_BACKEND=seatd WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
    LIBGL_ALWAYS_SOFTWARE=1 WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS=1 \
    as_kiosk "$_session" > "$PAGE_LOG" 2>&1 &
  COMP_PID=$!
  # The page's first frame: its second animation frame ran.
  wait_for 600 eval 'grep -q "touch-counter: ready" "$PAGE_LOG" || exited "$COMP_PID"'
  grep -q 'touch-counter: ready' "$PAGE_LOG" || { BROWSER_WHY="no first frame"; return 1; }
  _ready=$(cut -d' ' -f1 /proc/uptime)
  BROWSER_FIRST_FRAME=$(awk -v a="$_started" -v b="$_ready" -v c="$_shell" 'BEGIN { printf "%.1f s after %s started, %.1f s after boot", b - a, c, b }')
  wait_for 30 fd_open "$COMP_PID" "$CLONE_NODE" || { BROWSER_WHY="the clone is not open"; return 1; }
  WEV_LOG=$PAGE_LOG
  # wlroots announces the seat's touch around the first touch (see compositor_start), and
  # Chromium under emulation lost the first two taps after its first frame in every run
  # (later taps whole): tap until the page takes one, at most four times; the table
  # says how many were lost.
  _lost=0
  page_mark; play tap
  while [ "$(page_events)" = nothing ] && [ "$_lost" -lt 3 ]; do
    _lost=$((_lost + 1)); page_mark; play tap
  done
  expect_page "taps after start until one is taken ($_lost lost)" 'touchstart=1 touchend=1 click=1'
  sleep 1
  SURFACE_W=$(sed -nE 's/.*touch-counter: (ready|size) width=([0-9]*) height=([0-9]*).*/\2/p' "$PAGE_LOG" | tail -n1)
  SURFACE_H=$(sed -nE 's/.*touch-counter: (ready|size) width=([0-9]*) height=([0-9]*).*/\3/p' "$PAGE_LOG" | tail -n1)
}

# The page's running counts, as its last event line since it (re)loaded gave them.
COUNT_KEYS="touchstart touchmove touchend touchcancel pointercancel click"
page_counts() {
  _line=$(awk '/touch-counter: ready/ { l = "" } /touch-counter: event/ { l = $0 } END { print l }' "$PAGE_LOG")
  for _k in $COUNT_KEYS; do
    _v=$(echo "$_line" | sed -n "s/.* $_k=\([0-9]*\).*/\1/p")
    printf '%s ' "${_v:-0}"
  done
}
page_mark() { PAGE_MARK=$(page_counts); WEV_MARK=$(wc -l < "$PAGE_LOG"); }
# What the page got since the mark: each event type that came, with its count.
page_events() {
  echo "$PAGE_MARK $(page_counts)" | awk -v keys="$COUNT_KEYS" '{ n = split(keys, k, " ")
    for (i = 1; i <= n; i++) if ($(i + n) != $i) { printf "%s%s=%d", sep, k[i], $(i + n) - $i; sep = " " }
    if (sep == "") printf "nothing"; printf "\n" }'
}
expect_page() { # STEP EXPECTED (a regular expression over page_events)
  _seen=$(page_events)
  printf '%s\t%s\t%s\n' "$COMPOSITOR" "$1" "$_seen" >> "$PAGE_TSV"
  if echo "$_seen" | grep -qxE "$2"; then record "$1: the page got $2" pass "$_seen"
  else record "$1: the page got $2" fail "$_seen"; fi
}
# The last touchstart since the mark lies where the panel's point (X, Y) maps on the page,
# within 1 px (the page's clientX/clientY are whole CSS pixels: within 1.5).
expect_touchstart_at() { # STEP X Y
  _got=$(tail -n +$((WEV_MARK + 1)) "$PAGE_LOG" | sed -n 's/.*touch-counter: event touchstart .* x=\([0-9.-]*\) y=\([0-9.-]*\).*/\1 \2/p' | tail -n1)
  _want=$(surface_point "$2" "$3")
  if [ -n "$_got" ] && echo "$_got $_want" | awk '{ dx = $1 - $3; dy = $2 - $4; exit !(dx * dx <= 2.25 && dy * dy <= 2.25) }'
  then record "$1: touchstart at the panel's point" pass "($_got), expected ($_want) on ${SURFACE_W}x$SURFACE_H"
  else record "$1: touchstart at the panel's point" fail "got (${_got:-none}), expected ($_want) on ${SURFACE_W}x$SURFACE_H"; fi
}

# One browser's session: a tap, an edge pan that holds its touches, then the pan that
# takes a touch the page was shown, once per cancel mode. What the page gets of that pan
# is the table in docs/CONFIG.md; checked: the touch reached the page, and with "release"
# it ended there.
stacks_browser() { # BROWSER [COMPOSITOR: cage (default), labwc or sway]
  _shell=${2:-cage}
  COMPOSITOR=$_shell-$1
  begin_scenario "stacks-$1${2:+-$2}" || return
  MON_PID='' GD_PID='' DEV_PID='' WEV_PID='' COMP_PID=''
  stacks_gestured stacks-release.toml || { gestured_abort; return; }
  if ! browser_start "$1" "$_shell"; then
    record "$_shell runs $1" fail "${BROWSER_WHY:-}; its last line: $(tail -n1 "$PAGE_LOG")"
    compositor_stop; dmesg > "$SCENARIO_DIR/dmesg.txt"; gestured_abort; return
  fi
  record "$_shell runs $1" pass "first frame $BROWSER_FIRST_FRAME; page ${SURFACE_W}x$SURFACE_H"

  # A tap outside every gesture's view: the touch and the click the browser makes of it.
  page_mark; play tap
  expect_page tap 'touchstart=1 touchend=1 click=1'
  expect_touchstart_at tap 1000 600
  # An edge pan that holds its touches: the page gets nothing.
  page_mark; play edge
  expect_page edge-delayed nothing
  expect_gesture edge began 1
  # A pan with the defaults takes the touch the page had. "release": the lift comes where
  # the touch was when the pan began, a few pixels from its start.
  page_mark; play pan
  expect_page 'pan, cancel = "release"' 'touchstart=1( touchmove=[0-9]+)? touchend=1( pointercancel=1)?( click=1)?'
  expect_gesture pan began 1
  # The same with cancel = "palm" (a reload: a new clone, which the compositor opens).
  reload_cancel palm
  page_mark; play pan
  case $_shell in
    # sway passes the cancel on: the page's touch ends as cancelled, with no click.
    sway) expect_page 'pan, cancel = "palm"' 'touchstart=1( touchmove=[0-9]+)? touchcancel=1( pointercancel=1)?' ;;
    *) expect_page 'pan, cancel = "palm"' 'touchstart=1( touchmove=[0-9]+)?( touchend=1| touchcancel=1)?( pointercancel=1)?' ;;
  esac
  expect_gesture pan began 2
  # The tap after it. WebKit takes it whole. Chromium (measured in every run) ends the
  # touch the palm pan left down and drops the tap: what the page gets is that one
  # touchend; where the compositor passed the cancel (sway), nothing was left down. A
  # change of either shows here, and in the table.
  page_mark; play tap
  case $_shell-$1 in
    cage-chromium | labwc-chromium) expect_page 'tap after the palm pan' 'touchend=1' ;;
    *) expect_page 'tap after the palm pan' 'touchstart=1( touchmove=[0-9]+)? touchend=1( click=1)?' ;;
  esac
  # The next tap: the page takes touches again.
  page_mark; play tap
  expect_page 'the tap after that' 'touchstart=1 touchend=1 click=1'
  [ "$1" != chromium ] || kiosk_guide_config

  compositor_stop
  dmesg > "$SCENARIO_DIR/dmesg.txt"
  gestured_end
}

# The web bridge (docs/PROTOCOL.md, "Web pages") on a real kernel: gestured runs the
# shipped config (config/gestures.toml, its [[device]] rule matched to the ELAN panel:
# grabbed and passed through, cancel = "release"); gestured-web runs beside it as its unit
# would, without systemd here: the unit's ExecStart (the shipped config, the default
# control socket, listening on 127.0.0.1:8470 as gestured-web.socket does), plus the
# unit's drop-in example's --allow-origin for a page of the kiosk's own server, here
# busybox's httpd on http://localhost:8080. The browser under cage shows touch-counter.html
# from there; the page imports the shipped module from the bridge and follows the
# shipped config's admin swipe (admin_menu, an edge pan from the right) through
# EventSource. Each step checks what the page's console lines say it got.
BRIDGE=http://127.0.0.1:8470
KIOSK_ORIGIN=http://localhost:8080
ADMIN=admin_menu
WEB_UNIT=/vm/shipped/gestured-web.service
bridge_start() {
  ip link set lo up
  mkdir -p /etc/gestured /tmp/www
  cp /tmp/gestures.toml /etc/gestured/gestures.toml
  cp /vm/touch-counter.html /tmp/www/
  busybox httpd -f -p 127.0.0.1:8080 -h /tmp/www > "$SCENARIO_DIR/httpd.log" 2>&1 &
  HTTPD_PID=$!
  _web=$(sed -n 's|^ExecStart=@BINDIR@/||p' "$WEB_UNIT")
  # shellcheck disable=SC2086 # the unit's command line, split as systemd splits it
  $_web --allow-origin "$KIOSK_ORIGIN" > "$SCENARIO_DIR/gestured-web.log" 2>&1 &
  WEB_PID=$!
  check "gestured-web listens (the unit's command line, --allow-origin $KIOSK_ORIGIN)" "$_web" \
    wait_for 20 grep -q 'listening on port 8470' "$SCENARIO_DIR/gestured-web.log"
}
bridge_stop() {
  # shellcheck disable=SC2086 # unset ones must vanish
  kill ${HTTPD_PID:-} 2>/dev/null
  [ -z "${WEB_PID:-}" ] || check "gestured-web exits on SIGTERM" "within 3 s" stop_process "$WEB_PID"
}
# The page's lines for gesture events since the mark: each state that came, with its count,
# in the order they came ("nothing" without one).
page_gestures() {
  tail -n +$((WEV_MARK + 1)) "$PAGE_LOG" | sed -n "s/.*touch-counter: gesture $ADMIN \([a-z]*\) .*/\1/p" |
    awk '{ if (!($0 in n)) order[++k] = $0; n[$0]++ }
         END { for (i = 1; i <= k; i++) printf "%s%s=%d", (i > 1 ? " " : ""), order[i], n[order[i]]
               if (k == 0) printf "nothing"; printf "\n" }'
}
expect_page_gestures() { # STEP EXPECTED (a regular expression over page_gestures)
  _seen=$(page_gestures)
  printf '%s\t%s\t%s\n' "$COMPOSITOR" "$1" "$_seen" >> "$PAGE_TSV"
  if echo "$_seen" | grep -qxE "$2"; then record "$1: the page's stream got $2" pass "$_seen"
  else record "$1: the page's stream got $2" fail "$_seen"; fi
}
# Whether the daemon has gesture NAME enabled now (status's gestures array).
gesture_enabled() { # NAME
  status_ok && tr -d ' \n' < /tmp/status.json | sed -n "s/.*\"name\":\"$1\"//p" | grep -o '"enabled":[a-z]*' | head -n1 |
    cut -d: -f2
}
page_loads() { grep -c 'touch-counter: ready' "$PAGE_LOG"; }
page_sessions() { grep -c 'touch-counter: session' "$PAGE_LOG"; }
swipe_admin() {
  page_mark; play edge-right
  wait_for 10 eval '[ "$(page_gestures)" != nothing ] || [ "$(monitor_count "$ADMIN" ended)" -gt "${1:-0}" ]'
  # The page's event, a moment after the subscriber's.
  wait_for 5 eval 'page_gestures | grep -q ended'
}

stacks_bridge() { # BROWSER
  COMPOSITOR=cage-$1
  begin_scenario "stacks-$1-admin-swipe" || return
  MON_PID='' GD_PID='' DEV_PID='' WEV_PID='' COMP_PID='' WEB_PID='' HTTPD_PID=''
  sed 's/^name = "ILITEK ILITEK-TP\*".*/name = "ELAN Touchscreen*"/' /vm/shipped/gestures.toml > /tmp/shipped.toml
  check "the shipped config's device rule names the panel" "" grep -q '^name = "ELAN Touchscreen\*"' /tmp/shipped.toml
  stacks_gestured /tmp/shipped.toml || { gestured_abort; return; }
  bridge_start
  BROWSER_PAGE="$KIOSK_ORIGIN/touch-counter.html?bridge=$BRIDGE&gesture=$ADMIN"
  if ! browser_start "$1"; then
    record "cage runs $1 on the page from $KIOSK_ORIGIN" fail "${BROWSER_WHY:-}; its last line: $(tail -n1 "$PAGE_LOG")"
    compositor_stop; bridge_stop; gestured_abort; return
  fi
  record "cage runs $1 on the page from $KIOSK_ORIGIN" pass "first frame $BROWSER_FIRST_FRAME; page ${SURFACE_W}x$SURFACE_H"
  check "the page's stream is open (a session from the bridge)" "$(grep -m1 'touch-counter: session' "$PAGE_LOG" | sed 's/.*touch-counter: //')" \
    wait_for 30 grep -q 'touch-counter: session' "$PAGE_LOG"

  # A tap in the middle (in the map view, whose gestures leave the application its
  # touches): the page takes touches and makes clicks.
  page_mark; play tap
  expect_page "tap (the shipped config)" 'touchstart=1 touchend=1 click=1'
  # The staff's swipe from the right edge: the admin swipe reaches the page through the
  # bridge, and its touch does not (delays_touches_began): no touch, no click.
  swipe_admin 0
  expect_page "admin swipe" nothing
  expect_page_gestures "admin swipe" 'began=1( changed=[0-9]+)? ended=1'
  expect_eq "the subscriber got the admin swipe's began and ended" "1 1" \
    "$(monitor_count "$ADMIN" began) $(monitor_count "$ADMIN" ended)"
  # The page opened its menu: it switched the swipe off for its session.
  check "the page's set was taken" "$(grep -m1 'touch-counter: set' "$PAGE_LOG" | sed 's/.*touch-counter: //')" \
    wait_for 10 grep -q 'touch-counter: set ok' "$PAGE_LOG"
  expect_eq "the daemon has $ADMIN off (status)" false "$(gesture_enabled "$ADMIN")"
  # The next swipe does not reach it; its touch is the page's now (nothing holds it).
  page_mark; play edge-right
  sleep 2
  expect_page_gestures "admin swipe, switched off by the page" nothing
  expect_eq "the subscriber got no second began" 1 "$(monitor_count "$ADMIN" began)"
  expect_page "admin swipe, switched off by the page" 'touchstart=1( touchmove=[0-9]+)? touchend=1( pointercancel=1)?'
  # A tap closes the menu: the page reloads, its stream closes, the daemon undoes the set.
  _loads=$(page_loads) _sessions=$(page_sessions)
  play tap
  check "a tap reloads the page" "" wait_for 120 eval '[ "$(page_loads)" -gt "$_loads" ]'
  check "the reloaded page has a new session" "" wait_for 30 eval '[ "$(page_sessions)" -gt "$_sessions" ]'
  wait_for 10 eval '[ "$(gesture_enabled "$ADMIN")" = true ]'
  expect_eq "the daemon has $ADMIN on again (status)" true "$(gesture_enabled "$ADMIN")"
  check "gestured's log: the session's connection closed, its change undone" \
    "$(grep -m1 "undid its changes: gesture '$ADMIN'" "$SCENARIO_DIR/gestured.log" | cut -d' ' -f3-)" \
    grep -q "undid its changes: gesture '$ADMIN'" "$SCENARIO_DIR/gestured.log"
  swipe_admin 1
  expect_page "admin swipe after the reload" nothing
  expect_page_gestures "admin swipe after the reload" 'began=1( changed=[0-9]+)? ended=1'

  compositor_stop
  bridge_stop
  gestured_end
}

# The quick start's gestured config (docs/kiosk/gestures.toml), applied by a reload as an
# integrator would: a tap clicks the page; the staff's swipe from the left edge begins and
# ends, and the page gets nothing of it; the three-finger press begins, and the page gets
# its three touches whole and no click.
kiosk_guide_config() {
  check "the quick start's config is accepted" "gesturectl check" gesturectl check /vm/kiosk/gestures.toml
  cp /vm/kiosk/gestures.toml /tmp/gestures.toml && chmod 0644 /tmp/gestures.toml
  _before=$CLONE_NODE
  check "reload to the quick start's config" "" gesturectl reload --socket "$GD_SOCKET"
  # A new cancel makes a new clone (reload_cancel); the same one keeps it.
  wait_for 10 eval '[ -n "$(clone_node)" ] && [ "$(clone_node)" != "$_before" ]'
  CLONE_NODE=$(clone_node)
  check "${COMPOSITOR%%-*} reads the clone" "$CLONE_NODE" wait_for 30 fd_open "$COMP_PID" "$CLONE_NODE"
  sleep 1
  page_mark; play tap
  expect_page "tap (the quick start's config)" 'touchstart=1 touchend=1 click=1'
  page_mark; play edge
  expect_page "staff swipe from the left edge (the quick start's config)" nothing
  wait_for 3 test "$(monitor_count staff ended)" -ge 1
  expect_eq "the staff swipe ended (subscriber)" 1 "$(monitor_count staff ended)"
  page_mark; play hold-3f
  expect_page "three fingers held (the quick start's config)" 'touchstart=3( touchmove=[0-9]+)? touchend=3( pointercancel=[0-9]+)?'
  wait_for 3 test "$(monitor_count restart began)" -ge 1
  expect_eq "the three-finger press began (subscriber)" 1 "$(monitor_count restart began)"
}

# A site's rule for one panel, matched on its parent (KERNELS==inputN), which the clone
# cannot match; the package's rule (90-gestured-clone.rules) carries the properties to
# the clone. Applied at once; SITE_RULES is removed with site_rules_end.
SITE_RULES=/etc/udev/rules.d/70-site-panel.rules
site_rule() { # NODE ASSIGNMENTS (udev's ENV{KEY}="VALUE", ...)
  _input=$(basename "$(readlink -f "/sys/class/input/${1##*/}/device")")
  mkdir -p "${SITE_RULES%/*}"
  echo "SUBSYSTEM==\"input\", KERNEL==\"event*\", KERNELS==\"$_input\", $2" >> "$SITE_RULES"
  cp "$SITE_RULES" "$SCENARIO_DIR/"
  udevadm control --reload
  udevadm trigger --action=change --settle "$1"
}
site_rules_end() {
  rm -f "$SITE_RULES"
  udevadm control --reload
}

# The clone a gestured virtual touchscreen stands in for: its phys names the panel.
clone_of() { # PANEL_NODE
  for _s in /sys/class/input/event*; do
    [ "$(cat "$_s/device/phys" 2>/dev/null)" = "gestured-virtual/$1" ] && { echo "/dev/input/${_s##*/}"; return 0; }
  done
  return 1
}

# The clone as the panel's twin: a site's rule turns the panel a quarter and maps it to
# weston's output.
TURN="0 -1 1 1 0 0"
WESTON_OUTPUT=Virtual-1
stacks_twin() {
  COMPOSITOR=weston-twin
  begin_scenario stacks-twin || return
  MON_PID='' GD_PID='' DEV_PID='' WEV_PID='' COMP_PID=''
  device_create "$ELAN" || { record "device created" fail "evemu-device"; end_scenario; return; }
  site_rule "$DEV_NODE" "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"$TURN\", ENV{WL_OUTPUT}=\"$WESTON_OUTPUT\""
  udevadm info "$DEV_NODE" > "$SCENARIO_DIR/panel-udev.txt"
  check "the site's rule turned the panel" "$(cat "$SITE_RULES")" grep -q "LIBINPUT_CALIBRATION_MATRIX=$TURN" "$SCENARIO_DIR/panel-udev.txt"
  stacks_gestured delivery-edge.toml || { gestured_abort; return; }
  udevadm info "$CLONE_NODE" > "$SCENARIO_DIR/clone-udev.txt"
  for _p in "LIBINPUT_CALIBRATION_MATRIX=$TURN" "WL_OUTPUT=$WESTON_OUTPUT" \
            "$(grep -m1 'ID_INPUT_WIDTH_MM=' "$SCENARIO_DIR/panel-udev.txt" | cut -c4-)"; do
    check "udev gives the clone $_p" "$CLONE_NODE" grep -qx "E: $_p" "$SCENARIO_DIR/clone-udev.txt"
  done
  /usr/libexec/libinput/libinput-list-devices > "$SCENARIO_DIR/list-devices.txt" 2>&1
  check "libinput applies the turn to the clone" "$CLONE_NODE" eval \
    "awk -v n='$CLONE_NODE' '/^Kernel:/ { mine = (\$2 == n) } mine && /^Calibration:/ { print; exit }' '$SCENARIO_DIR/list-devices.txt' |
     grep -q 'Calibration: *0.00 -1.00 1.00 1.00 0.00 0.00'"
  if ! compositor_start weston; then
    record "weston runs wev" fail "see compositor.log"
    compositor_stop; gestured_abort; return
  fi
  wev_mark; play tap
  expect_wev 'tap on the turned panel' 'down up'
  expect_down_at 'tap on the turned panel' 1000 600 "$TURN"
  compositor_stop
  gestured_end
  site_rules_end
}

# A tap on one of two panels: the wev on the panel's output gets down and up at the
# panel's point, the other wev nothing.
# MATRIX: where the panel's point lands on its output's surface, as a calibration matrix
# over that surface (identity: the panel covers the output).
tap_on_output() { # PANEL_NODE STREAM X Y OUTPUT OWN_WEV_LOG OTHER_WEV_LOG MATRIX
  WEV_LOG=$7; wev_mark; _other_mark=$WEV_MARK
  WEV_LOG=$6; wev_mark
  _panel=$DEV_NODE
  DEV_NODE=$1
  play "$2"
  DEV_NODE=$_panel
  expect_wev "tap on the panel of $5: its output's wev" 'down up'
  expect_down_at "tap on the panel of $5" "$3" "$4" "$8"
  WEV_LOG=$7 WEV_MARK=$_other_mark
  expect_wev "tap on the panel of $5: the other output's wev" nothing
  WEV_LOG=$6
}

two_outputs_abort() {
  compositor_stop
  kill "$PANEL_A_PID" 2>/dev/null
  gestured_abort
  site_rules_end
}

# Two identical panels on two outputs: sway with two headless outputs side by side, a
# wev full screen on each; a site's rule per panel gives it its output (WL_OUTPUT, on
# KERNELS==, which tells the two apart where their names and ids cannot); gestured grabs
# both and passes them through two clones; sway maps each clone to its panel's output.
stacks_two_outputs() {
  COMPOSITOR=sway-two-outputs
  begin_scenario stacks-two-outputs || return
  MON_PID='' GD_PID='' DEV_PID='' WEV_PID='' COMP_PID=''
  device_create "$ELAN" || { record "device created" fail "evemu-device"; end_scenario; return; }
  PANEL_A=$DEV_NODE PANEL_A_PID=$DEV_PID
  device_create "$ELAN" || { record "second device created" fail "evemu-device"; kill "$PANEL_A_PID"; gestured_abort; return; }
  PANEL_B=$DEV_NODE
  site_rule "$PANEL_A" 'ENV{WL_OUTPUT}="HEADLESS-1"'
  site_rule "$PANEL_B" 'ENV{WL_OUTPUT}="HEADLESS-2"'
  gestured_start stacks-release.toml || { two_outputs_abort; return; }
  check "gestured grabbed both panels and made their clones" "" \
    wait_for 10 eval 'clone_of "$PANEL_A" > /dev/null && clone_of "$PANEL_B" > /dev/null && status_ok &&
                      [ "$(grep -o "\"grabbed\" *: *true" /tmp/status.json | wc -l)" = 2 ]'
  CLONE_A=$(clone_of "$PANEL_A") CLONE_B=$(clone_of "$PANEL_B")
  check "udev gives each clone its panel's WL_OUTPUT" "$CLONE_A $CLONE_B" \
    eval 'udevadm info "$CLONE_A" | grep -qx "E: WL_OUTPUT=HEADLESS-1" && udevadm info "$CLONE_B" | grep -qx "E: WL_OUTPUT=HEADLESS-2"'
  DEV_NODE=$PANEL_A CLONE_NODE=$CLONE_A
  if ! SWAY_OUTPUTS=2 SWAY_CONFIG='output HEADLESS-1 pos 0 0
output HEADLESS-2 pos 1280 0' compositor_start sway; then
    record "sway runs wev on HEADLESS-1" fail "${COMP_WHY:-}; wev's last line: $(tail -n1 "$WEV_LOG")"
    two_outputs_abort; return
  fi
  WEV1_LOG=$WEV_LOG WEV2_LOG=$SCENARIO_DIR/wev2.log
  check "sway opened both clones" "" wait_for 30 fd_open "$COMP_PID" "$CLONE_B"
  : > "$WEV2_LOG" && chmod 0666 "$WEV2_LOG"
  _sock=$(ls "$XDG_RUNTIME_DIR"/sway-ipc.*.sock 2>/dev/null | head -n1)
  # sway 1.7 maps each clone to its WL_OUTPUT; sway 1.10.1 (Debian 13) ignores it, as run,
  # and maps both over the whole layout of two outputs side by side: a panel's point lands
  # at twice its x, less the output's offset. The taps lie where both mappings put them on
  # their panel's output, so each still reaches that output's wev alone. sway 1.10 also
  # starts the first wev on HEADLESS-2 (1.7 on HEADLESS-1), so there it is moved first
  # (on 1.7 that move, to the output it is on, left the second wev off HEADLESS-2). The
  # window is picked by its app_id: by `[pid=$(pidof wev)]`, after the sway session's own
  # wev, sway refused the criteria ("Token '' is not recognized") and nothing moved; the
  # focused window is not it (focus is on HEADLESS-1's empty workspace).
  case $(sway --version) in
    "sway version 1.7"*) _first="" _map_a="1 0 0 0 1 0" _map_b="1 0 0 0 1 0" ;;
    *) _first='[app_id="^wev$"] move container to output HEADLESS-1; ' _map_a="2 0 0 0 1 0" _map_b="2 0 -1 0 1 0" ;;
  esac
  swaymsg -s "$_sock" "${_first}focus output HEADLESS-2; exec stdbuf -oL wev > $WEV2_LOG" > "$SCENARIO_DIR/swaymsg.log" 2>&1
  check "a second wev, on HEADLESS-2" "" eval 'wait_for 60 grep -qE "xdg_toplevel\] configure: width: [1-9]" "$WEV2_LOG" &&
                                               wait_for 30 grep -q "capabilities: touch" "$WEV2_LOG"'
  swaymsg -s "$_sock" -t get_tree > "$SCENARIO_DIR/sway-tree.json" 2>&1
  tap_on_output "$PANEL_A" tap 1000 600 HEADLESS-1 "$WEV1_LOG" "$WEV2_LOG" "$_map_a"
  tap_on_output "$PANEL_B" tap-2 2400 1200 HEADLESS-2 "$WEV2_LOG" "$WEV1_LOG" "$_map_b"
  compositor_stop
  kill "$PANEL_A_PID" 2>/dev/null
  gestured_end
  site_rules_end
}

: > "$SUMMARY"
: > "$WEV_TSV"
: > "$PAGE_TSV"
sed 's/^cancel = .*/cancel = "release"/' /vm/configs/stacks-palm.toml > /vm/configs/stacks-release.toml
# Shared-memory buffers (wlroots' allocator, wev's surface) live in /dev/shm.
mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 shm /dev/shm
modprobe bochs || echo "vm: modprobe bochs failed: weston has no DRM device" >&2
# The kiosk's user; seatd gives its group the seat. Not a child of this shell: the
# harness waits for its own children.
echo 'kiosk:x:1000:1000:kiosk:/home/kiosk:/bin/sh' >> /etc/passwd
echo 'kiosk:x:1000:' >> /etc/group
mkdir -p /home/kiosk && chown kiosk:kiosk /home/kiosk
# Runs a command line as the kiosk's user, with this environment (one string: su's option
# parser would take a "--" among the program's arguments for its own).
# exec: started in the background, the function's subshell becomes the compositor.
as_kiosk() { exec su -p -s /bin/sh -c "exec $1" kiosk; }
# Not bound to a VT: the test's console is the serial line, and a VT-bound seat0 enables
# its client only while its VT is in front.
(SEATD_VTBOUND=0 seatd -g kiosk > "$RESULTS/seatd.log" 2>&1 &)
check "uinput available" "/dev/uinput" test -c /dev/uinput
check "systemd-udevd running" "" pidof systemd-udevd
if [ "${2:-}" = browser ]; then
  for browser in cog $(command -v chromium > /dev/null && echo chromium); do stacks_browser "$browser"; done
  # Raspberry Pi OS's desktop: Chromium started by labwc (docs/KIOSK.md, section 6).
  ! { command -v chromium && command -v labwc; } > /dev/null || stacks_browser chromium labwc
  # And under sway 1.10, which passes libinput's touch cancel on (Debian 13's).
  ! { command -v chromium && command -v labwc; } > /dev/null || stacks_browser chromium sway
  stacks_bridge cog
else
  for compositor in cage weston sway $(command -v labwc > /dev/null && echo labwc); do stacks_session "$compositor"; done
  for compositor in cage sway $(command -v labwc > /dev/null && echo labwc); do stacks_keys "$compositor"; done
  for compositor in cage sway $(command -v labwc > /dev/null && echo labwc); do stacks_idle "$compositor"; done
  stacks_twin
  stacks_two_outputs
fi
echo VM-SUMMARY-BEGIN
cat "$SUMMARY"
echo VM-SUMMARY-END
