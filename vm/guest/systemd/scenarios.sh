#!/bin/sh
# shellcheck shell=dash disable=SC1091,SC2016 # guest paths; eval expands later, on purpose
# The systemd tier (vm/README.md): Debian 12 or 13 booted with systemd as PID 1; this runs from
# vm-scenarios.service once multi-user.target is up. It installs the gestured package with
# dpkg as an integrator does and drives the packaged, sandboxed unit through systemctl:
# start and STATUS=, gesturectl by the socket's group, reload with a broken file, drop-ins, the
# shipped config's actions under the sandbox and under the kiosk-user drop-in, uinput
# passthrough as the unprivileged user, SIGSTOP until the watchdog kills and restarts it,
# and stop. The summary goes to the 9p share in the format vm/run.sh reads.
RESULTS=${1:-/results}
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
mkdir -p "$RESULTS"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results "$RESULTS" 2>/dev/null ||
  echo "vm: no 9p results share: the summary goes to the serial console only"
. /vm/lib.sh
# The other tier's helpers: in_range, status_ok (gestured.sh); clone_node, libinput_stop,
# libinput_count (delivery.sh). Both only define functions and paths.
. /vm/gestured.sh
. /vm/delivery.sh
# Scenarios kept in files of their own, on this file's helpers.
. /vm/systemd/upgrade.sh
. /vm/uhid.sh

CONF=/etc/gestured/gestures.toml
DROPINS=/etc/systemd/system/gestured.service.d
KIOSK_STATE=/var/lib/kiosk
MAP_LOG=/tmp/map.log

main_pid() { systemctl show -P MainPID gestured; }
active() { [ "$(systemctl is-active gestured)" = active ]; }
as_user() { # USER COMMAND...: with the user's own groups, as a login would give them
  _u=$1; shift
  setpriv --reuid="$_u" --regid="$_u" --init-groups -- "$@"
}
# The unit's messages (the daemon's and systemd's about it) since EPOCH.
journal_since() { journalctl -q -u gestured --no-pager -o cat --since "@$1"; }
# The daemon's structured entries with MESSAGE_ID=ID (and more FIELD=VALUE matches) since
# EPOCH, in journalctl's export format: one FIELD=value line each, entries apart by a blank.
journal_entries() { # EPOCH ID [MATCH...]
  _since=$1 _id=$2; shift 2
  journalctl -q -u gestured --no-pager -o export --output-fields=MESSAGE,PRIORITY,MESSAGE_ID,GESTURED_DEVICE,GESTURED_DEVICE_NAME,GESTURED_ID_PATH,GESTURED_CONFIG_FILE,GESTURED_ERROR,GESTURED_HEALTH,GESTURED_HEALTH_REASON,SYSLOG_IDENTIFIER,_TRANSPORT \
    --since "@$_since" MESSAGE_ID="$_id" "$@"
}
# Message ids (docs/LOGGING.md).
ID_RELOAD_REFUSED=efddb5ae1aea492c92744a2a226f81cc
ID_PANEL_ADDED=770191cf454444279d6a6691a67b911d
ID_PANEL_GRABBED=0e89a81036be484792ae2b8fd610b0c7
ID_PANEL_REMOVED=b92a87968eca46f4ba9982efb1ff9a6e
ID_PANEL_NOISY=2ab00f82238e4a9d8c0fa8e68a8e87b8
now() { date +%s.%N; }
elapsed_ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%d", (b - a) * 1000 }'; }
# Restarts the unit after a config or drop-in change, and waits until it answers.
restart_unit() {
  systemctl daemon-reload
  systemctl restart gestured && wait_for 10 status_ok
}
groups_of() { sed -n 's/^Groups:[[:space:]]*//p' "/proc/$1/status"; } # PID: its gids
has_groups() { # PID GROUP...: the process has each group
  _gids=" $(groups_of "$1") "; shift
  for _g; do echo "$_gids" | grep -q " $(getent group "$_g" | cut -d: -f3) " || return 1; done
}
install_config() { # FILE: as /etc/gestured/gestures.toml (root's, 0644, as the package's)
  install -m 0644 "$1" "$CONF"
}

# The integrator's side of the shipped config: its two command actions and the map
# application's socket. The commands record who ran them, with what, and what the sandbox
# let them write; admin-menu leaves a process behind, as a menu application would.
kiosk_setup() {
  mkdir -p /usr/local/libexec/kiosk "$KIOSK_STATE" /var/lib/elsewhere /run/kiosk
  # Writable by everyone: only the service's sandbox can keep actions out of elsewhere.
  chmod 0777 "$KIOSK_STATE" /var/lib/elsewhere
  for cmd in admin-menu wake-display; do
    cat > /usr/local/libexec/kiosk/$cmd <<'SCRIPT'
#!/bin/sh
# Builtins where they serve: under emulation on a loaded host each program started takes
# most of a second, and the shipped config gives admin-menu 5 s in all (timeout). true,
# not ":": a failed redirection of a special builtin ends the script (status 2).
name=${0##*/}
[ "$name" = admin-menu ] && setsid sleep 613 < /dev/null > /dev/null 2>&1 &
out=/var/lib/kiosk/$name.$$
home=failed; { true >> "$HOME/.kiosk-action"; } 2>/dev/null && home=ok
elsewhere=failed; { true >> /var/lib/elsewhere/x; } 2>/dev/null && elsewhere=ok
{ echo "WHO=$(id -un)"; echo "GROUPS_OF=$(id -Gn)"; echo "HOME_WRITE=$home"; echo "ELSEWHERE_WRITE=$elsewhere"
  echo "ARGS=$*"; env; } > "$out"
exit 0
SCRIPT
    chmod 0755 /usr/local/libexec/kiosk/$cmd
  done
  : > "$MAP_LOG"
  socat -u UNIX-RECV:/run/kiosk/map.sock,perm=0666,unlink-early OPEN:"$MAP_LOG",creat,append &
  MAP_PID=$!
  wait_for 5 test -S /run/kiosk/map.sock
}

# WHO etc. of the newest record of the command
action_value() { # COMMAND VAR
  # shellcheck disable=SC2012 # the newest of files this script names
  _f=$(ls -t "$KIOSK_STATE/$1".* 2>/dev/null | head -n1)
  [ -n "$_f" ] && sed -n "s/^$2=//p" "$_f" | head -n1
}
# The ceiling for an action's record: a shell running a dozen programs, which took over
# 5 s under emulation on a host at a load of 30 (a poll: no cost when it is quick).
ACTION_WAIT=20
trigger() { # GESTURE [STATE]: through the daemon, as root
  gesturectl trigger "$@" >> "$SCENARIO_DIR/trigger.log" 2>&1
}

# 0. The package as Debian installs it: dpkg -i under a running systemd enables and
#    starts the unit, makes the users, and the udev rule gives /dev/uinput its group.
scenario_install() {
  begin_scenario systemd-install || return 0
  check "systemd is PID 1" "$(cat /proc/1/comm)" test "$(cat /proc/1/comm)" = systemd
  # is-system-running says "starting" until this unit's own job ends.
  _failed=$(systemctl --failed --plain --no-legend | cut -d' ' -f1 | tr '\n' ' ')
  check "multi-user.target reached, no unit failed" "failed: ${_failed:-none}" \
    test "$(systemctl is-active multi-user.target)" = active -a -z "$_failed"
  _deb=$(ls /root/gestured_*.deb)
  _t0=$(now)
  check "dpkg -i $(basename "$_deb")" "see dpkg.log" eval 'dpkg -i "$_deb" > "$SCENARIO_DIR/dpkg.log" 2>&1'
  printf 'dpkg_install_ms\t%s\n' "$(elapsed_ms "$_t0" "$(now)")" >> "$RESULTS/timings.tsv"
  expect_eq "dpkg: installed" "install ok installed" "$(dpkg-query -W -f='${Status}' gestured 2>&1)"
  check "sysusers made the user gestured" "$(getent passwd gestured)" getent passwd gestured
  expect_eq "enabled on install" enabled "$(systemctl is-enabled gestured 2>&1)"
  check "started on install" "" wait_for 10 active
  expect_eq "/dev/uinput group (udev rule)" gestured-uinput "$(stat -c %G /dev/uinput)"
  end_scenario
}

# 1. systemctl start: active, and systemctl status shows the daemon's STATUS= line; the
#    process runs as gestured under the sandbox (no capabilities, seccomp, no new privs).
scenario_start() {
  begin_scenario systemd-start || return 0
  systemctl stop gestured
  check "systemctl start" "" systemctl start gestured
  check "active" "" active
  systemctl status gestured --no-pager > "$SCENARIO_DIR/status.txt" 2>&1
  _status=$(sed -n 's/^ *Status: //p' "$SCENARIO_DIR/status.txt")
  check "systemctl status shows STATUS=" "$_status" \
    eval 'echo "$_status" | grep -Eq "^\"[0-9]+ gestures from /etc/gestured/gestures.toml; [0-9]+ touchscreens?"'
  _pid=$(main_pid)
  expect_eq "runs as" gestured "$(stat -c %U "/proc/$_pid")"
  expect_eq "no capabilities (CapBnd)" 0000000000000000 "$(sed -n 's/^CapBnd:\t//p' "/proc/$_pid/status")"
  expect_eq "NoNewPrivs" 1 "$(sed -n 's/^NoNewPrivs:\t//p' "/proc/$_pid/status")"
  expect_eq "seccomp filter" 2 "$(sed -n 's/^Seccomp:\t//p' "/proc/$_pid/status")"
  end_scenario
}

# 2. gesturectl as a member of the socket's group works; an outsider is told the group.
scenario_socket_group() {
  begin_scenario systemd-socket-group || return 0
  usermod -aG gestured member
  check "gesturectl status as a member of group gestured" "" \
    eval 'as_user member gesturectl status > "$SCENARIO_DIR/member.txt" 2>&1'
  as_user outsider gesturectl status > "$SCENARIO_DIR/outsider.txt" 2>&1
  expect_eq "gesturectl status as an outsider fails" 1 "$(( $? != 0 ))"
  check "the outsider is told which group to join" "$(head -n1 "$SCENARIO_DIR/outsider.txt")" \
    grep -q "group 'gestured'.*usermod -aG gestured" "$SCENARIO_DIR/outsider.txt"
  end_scenario
}

# 3. systemctl reload: a broken file fails the reload with its error and the running
#    config stays (its gestures still trigger); a good file reloads.
scenario_reload() {
  begin_scenario systemd-reload || return 0
  cp "$CONF" /tmp/good.toml
  _t0=$(date +%s)
  printf '\n[gesture.broken]\ntype = "fly"\n' >> "$CONF"
  systemctl reload gestured > "$SCENARIO_DIR/reload-broken.txt" 2>&1
  expect_eq "systemctl reload of a broken file fails" 1 "$(( $? != 0 ))"
  journal_since "$_t0" > "$SCENARIO_DIR/journal.txt"
  check "the journal has the error with its place" "$(grep -m1 'gestures.toml:' "$SCENARIO_DIR/journal.txt")" \
    grep -q 'gestures.toml:[0-9]*:[0-9]*' "$SCENARIO_DIR/journal.txt"
  # Selected by its MESSAGE_ID, not its text: one structured entry from the native socket.
  journal_entries "$_t0" "$ID_RELOAD_REFUSED" > "$SCENARIO_DIR/refused.export"
  expect_eq "journalctl MESSAGE_ID=<reload refused>: entries" 1 "$(grep -c '^MESSAGE_ID=' "$SCENARIO_DIR/refused.export")"
  check "... native, priority err, GESTURED_CONFIG_FILE" "$(tr '\n' ' ' < "$SCENARIO_DIR/refused.export")" \
    eval 'grep -qx "_TRANSPORT=journal" "$SCENARIO_DIR/refused.export" && grep -qx "PRIORITY=3" "$SCENARIO_DIR/refused.export" &&
          grep -qx "GESTURED_CONFIG_FILE=$CONF" "$SCENARIO_DIR/refused.export" && grep -qx "SYSLOG_IDENTIFIER=gestured" "$SCENARIO_DIR/refused.export"'
  check "... and the reason in GESTURED_ERROR" "" grep -aq "gesture.broken.type" "$SCENARIO_DIR/refused.export"
  # The tier registers packages without their dpkg triggers: do what systemd's
  # (interest in /usr/lib/systemd/catalog) does on a real install.
  check "the package installed the catalog" "" test -f /usr/lib/systemd/catalog/gestured.catalog
  journalctl --update-catalog
  journalctl -q -x -u gestured --no-pager --since "@$_t0" MESSAGE_ID="$ID_RELOAD_REFUSED" > "$SCENARIO_DIR/refused-x.txt" 2>&1
  check "journalctl -x explains it from the catalog" "$(grep -m1 'Subject' "$SCENARIO_DIR/refused-x.txt")" \
    grep -q 'Subject: gestured refused a configuration reload' "$SCENARIO_DIR/refused-x.txt"
  check "still active" "" active
  systemctl status gestured --no-pager > "$SCENARIO_DIR/status-broken.txt" 2>&1
  check "status: reload refused, previous config running" "$(grep -m1 'Status:' "$SCENARIO_DIR/status-broken.txt")" \
    grep -q 'last reload refused.*running the previous config' "$SCENARIO_DIR/status-broken.txt"
  check "the old config's gesture still triggers" "gesturectl trigger next_floor" \
    eval 'gesturectl trigger next_floor > "$SCENARIO_DIR/trigger-old.txt" 2>&1'
  install_config /tmp/good.toml
  check "systemctl reload of the good file" "" systemctl reload gestured
  systemctl status gestured --no-pager > "$SCENARIO_DIR/status-good.txt" 2>&1
  check "status: no refused reload" "" eval '! grep -q "last reload refused" "$SCENARIO_DIR/status-good.txt"'
  end_scenario
}

# 3b. Config drop-ins as a configuration manager writes them: a file in
#    /etc/gestured/gestures.d (the package makes the directory) adds a gesture that fires
#    after systemctl reload; a broken one is refused naming its file while the running
#    gestures stay; check --as-dropin validates a candidate the way Ansible's validate does.
scenario_dropin() {
  begin_scenario systemd-dropin || return 0
  _dir=/etc/gestured/gestures.d
  check "the package made $_dir" "$(ls -ld "$_dir" 2>&1)" test -d "$_dir"
  printf '[gesture.site_tap]\ntype = "tap"\ntouches = 4\n[gesture.site_tap.on.recognized]\ncommand = "echo fired > /run/gestured/site-tap"\n' \
    > "$_dir/50-site.toml"
  check "gesturectl check lists the drop-in" "" eval 'gesturectl check > "$SCENARIO_DIR/check.txt" 2>&1 && grep -q "50-site.toml" "$SCENARIO_DIR/check.txt"'
  check "systemctl reload takes the drop-in" "" systemctl reload gestured
  check "status lists the drop-in in force" "" eval 'gesturectl status --json | grep -q "gestures.d/50-site.toml"'
  rm -f /run/gestured/site-tap
  trigger site_tap
  check "the drop-in's gesture fires" "" wait_for 5 test -s /run/gestured/site-tap
  printf '[gesture.site_tap]\ntaps = "two"\n' > /tmp/candidate.toml
  check "check --as-dropin refuses a bad candidate" "" eval '! gesturectl check --as-dropin /tmp/candidate.toml --dropin-name 60-more.toml > "$SCENARIO_DIR/candidate.txt" 2>&1'
  _t0=$(date +%s)
  cp /tmp/candidate.toml "$_dir/60-broken.toml"
  systemctl reload gestured > "$SCENARIO_DIR/reload-broken.txt" 2>&1
  expect_eq "systemctl reload with a broken drop-in fails" 1 "$(( $? != 0 ))"
  journal_since "$_t0" > "$SCENARIO_DIR/journal.txt"
  check "the journal names the drop-in at its place" "$(grep -m1 '60-broken.toml' "$SCENARIO_DIR/journal.txt")" \
    grep -q 'gestures.d/60-broken.toml:2:1' "$SCENARIO_DIR/journal.txt"
  rm -f /run/gestured/site-tap
  trigger site_tap
  check "the running drop-in gesture still fires" "" wait_for 5 test -s /run/gestured/site-tap
  rm -f "$_dir/60-broken.toml" "$_dir/50-site.toml"
  check "systemctl reload without the drop-ins" "" systemctl reload gestured
  check "the gesture is gone" "" eval '! gesturectl trigger site_tap > /dev/null 2>&1'
  end_scenario
}

# 4. The shipped config's actions under the packaged sandbox, through the daemon
#    (gesturectl trigger): the socket actions reach the map application; the commands run
#    as gestured and may write only where a drop-in lets them (the unit's
#    ReadWritePaths= example); the systemctl action needs the polkit rule the config names.
scenario_actions() {
  begin_scenario systemd-actions || return 0
  mkdir -p "$DROPINS"
  printf '[Service]\nReadWritePaths=%s\n' "$KIOSK_STATE" > "$DROPINS/kiosk-state.conf"
  restart_unit
  rm -f "$KIOSK_STATE"/*
  trigger wake
  trigger admin_menu
  check "wake-display ran" "" wait_for "$ACTION_WAIT" eval 'test -n "$(action_value wake-display WHO)"'
  expect_eq "wake-display ran as" gestured "$(action_value wake-display WHO)"
  expect_eq "wake-display: GESTURE_NAME" wake "$(action_value wake-display GESTURE_NAME)"
  expect_eq "wake-display: daemon.environment" "http://localhost:8080/" "$(action_value wake-display KIOSK_URL)"
  expect_eq "the sandbox: no write outside ReadWritePaths" failed "$(action_value wake-display ELSEWHERE_WRITE)"
  check "... which user gestured may write outside the service" "" as_user gestured touch /var/lib/elsewhere/probe
  check "admin-menu ran" "" wait_for "$ACTION_WAIT" eval 'test -n "$(action_value admin-menu WHO)"'
  check "admin-menu got --from-y" "$(action_value admin-menu ARGS)" \
    eval 'action_value admin-menu ARGS | grep -Eq "^--from-y [0-9.]+$"'
  for _g in "map_zoom changed" "map_zoom ended" "map_rotate changed" "map_pan changed" next_floor; do
    # shellcheck disable=SC2086 # gesture and state
    trigger $_g
  done
  sleep 0.5
  cp "$MAP_LOG" "$SCENARIO_DIR/map.log"
  for _m in "zoom " "zoom-end " "rotate " "pan " "floor +1"; do
    check "socket action reached the map: '$_m'" "" grep -q "$_m" "$MAP_LOG"
  done
  # polkitd up before the action asks: D-Bus starts it on the first request, which under
  # emulation at a host load of 30-35 took longer than the action's 10 s (Debian 13's
  # run: systemctl killed at its timeout, no answer), and the refusal is what is checked.
  systemctl start polkit.service
  _t0=$(date +%s)
  trigger reload began
  # polkitd says no ("Interactive authentication required").
  wait_for 20 eval 'journal_since "$_t0" | grep -qi "kiosk-browser.*\(authentication\|access denied\)"'
  journal_since "$_t0" > "$SCENARIO_DIR/journal-reload.txt"
  check "systemctl action: refused without the polkit rule the config names" \
    "$(grep -m1 'kiosk-browser' "$SCENARIO_DIR/journal-reload.txt")" \
    eval 'grep -qi "kiosk-browser.*\(authentication\|access denied\)" "$SCENARIO_DIR/journal-reload.txt" &&
          grep -q "gestured-polkit.rules" "$CONF"'
  end_scenario
}

# 4b. The kiosk-user drop-in (installed as an example by the package): the daemon runs as
#     the kiosk user with the session's environment, and its actions work.
scenario_kiosk_user() {
  begin_scenario systemd-kiosk-user || return 0
  install -d -m 0700 -o kiosk -g kiosk /run/user/1000
  cp /usr/share/doc/gestured/examples/gestured-kiosk-user.conf "$DROPINS/kiosk-user.conf"
  check "restart with the kiosk-user drop-in" "" restart_unit
  expect_eq "runs as" kiosk "$(stat -c %U "/proc/$(main_pid)")"
  # SupplementaryGroups= adds up across the unit and the drop-in: passthrough keeps working.
  check "keeps the groups input and gestured-uinput" "$(groups_of "$(main_pid)")" \
    has_groups "$(main_pid)" input gestured-uinput
  rm -f "$KIOSK_STATE"/*
  : > "$MAP_LOG"
  trigger wake
  trigger next_floor
  check "wake-display ran" "" wait_for "$ACTION_WAIT" eval 'test -n "$(action_value wake-display WHO)"'
  expect_eq "wake-display ran as" kiosk "$(action_value wake-display WHO)"
  expect_eq "the session's XDG_RUNTIME_DIR" /run/user/1000 "$(action_value wake-display XDG_RUNTIME_DIR)"
  expect_eq "the session's WAYLAND_DISPLAY" wayland-0 "$(action_value wake-display WAYLAND_DISPLAY)"
  expect_eq "may write to the kiosk user's home (as the drop-in says)" ok "$(action_value wake-display HOME_WRITE)"
  check "socket action reached the map" "" wait_for 2 grep -q "floor +1" "$MAP_LOG"
  check "gesturectl status as root" "" eval 'gesturectl status > /dev/null'
  rm -f "$DROPINS/kiosk-user.conf"
  restart_unit
  expect_eq "back to" gestured "$(stat -c %U "/proc/$(main_pid)")"
  end_scenario
}

# libinput on the clone: what the application would read, line by line (the stop
# scenario waits for a touch in it).
libinput_start() {
  stdbuf -oL "$DEBUG_EVENTS" --device "$CLONE_NODE" > "$SCENARIO_DIR/libinput.log" 2>&1 &
  LI_PID=$!
  wait_for 5 fd_open "$LI_PID" "$CLONE_NODE"
}

# evtest says at its start whether another process holds the device (its log at exit).
panel_grabbed() { # LOGNAME: 0 when grabbed
  reader_start "$SCENARIO_DIR/$1"
  sleep 0.2
  reader_stop
  grep -q 'grabbed by another process' "$SCENARIO_DIR/$1"
}

# A tap, and the lift of whatever slot 0 holds, as short replays (one evemu-play each).
TAP_EVENTS=/tmp/tap.events
LIFT_EVENTS=/tmp/lift.events
make_tap_events() {
  head -n 12 "$R/synth-elan-double-vs-single.events" | sed 's/ 0039 100$/ 0039 900/' > "$TAP_EVENTS"
  printf 'E: 0.000001 %s\n' "0003 002f 0" "0003 0039 -1" "0001 014a 0" "0000 0000 0" > "$LIFT_EVENTS"
}

# 5. uinput passthrough under the sandbox: the panel matched by a [[device]] rule with
#    passthrough = true; gestured (user gestured, group gestured-uinput from the udev
#    rule) grabs it and libinput reads its clone.
scenario_passthrough() {
  begin_scenario systemd-passthrough || return 0
  sed -e 's/^name = "ILITEK ILITEK-TP\*".*/name = "ELAN Touchscreen*"/' \
      -e 's/^# *passthrough = false.*/passthrough = true/' /tmp/good.toml > /tmp/passthrough.toml
  check "the shipped config with passthrough on the panel" "" grep -q '^passthrough = true' /tmp/passthrough.toml
  install_config /tmp/passthrough.toml
  restart_unit
  _t0=$(date +%s)
  device_create "$ELAN" || { record "device created" fail "evemu-device $ELAN"; end_scenario; return 1; }
  check "status lists the panel" "$DEV_NAME" wait_for 5 eval 'status_ok && grep -q "ELAN Touchscreen" /tmp/status.json'
  # The panel's arrival and grab, selected by MESSAGE_ID and the panel's node.
  check "journalctl MESSAGE_ID=<panel added> GESTURED_DEVICE=$DEV_NODE" "" \
    wait_for 5 eval 'journal_entries "$_t0" "$ID_PANEL_ADDED" GESTURED_DEVICE="$DEV_NODE" | grep -q "^MESSAGE=input: using $DEV_NODE"'
  check "... by its name, with its GESTURED_ID_PATH" "$(journal_entries "$_t0" "$ID_PANEL_ADDED" | grep '^GESTURED_')" \
    eval 'journal_entries "$_t0" "$ID_PANEL_ADDED" GESTURED_DEVICE_NAME="$DEV_NAME" | grep -q "^GESTURED_ID_PATH=."'
  check "journalctl MESSAGE_ID=<panel grabbed> GESTURED_DEVICE=$DEV_NODE" "" \
    wait_for 5 eval 'journal_entries "$_t0" "$ID_PANEL_GRABBED" GESTURED_DEVICE="$DEV_NODE" | grep -q "^MESSAGE=input: $DEV_NODE grabbed"'
  wait_for 5 eval '[ -n "$(clone_node)" ]'
  CLONE_NODE=$(clone_node)
  check "the daemon made the clone" "${CLONE_NODE:-none}" test -c "${CLONE_NODE:-/nonexistent}" || { end_scenario; return 1; }
  check "the daemon's groups include gestured-uinput" "$(groups_of "$(main_pid)")" \
    has_groups "$(main_pid)" gestured-uinput
  expect_eq "/dev/uinput" "crw-rw---- gestured-uinput" "$(stat -c '%A %G' /dev/uinput)"
  _data=/run/udev/data/c$(cat "/sys/class/input/${CLONE_NODE##*/}/dev")
  check "udev: the clone is a touchscreen" "" wait_for 5 grep -q '^E:ID_INPUT_TOUCHSCREEN=1' "$_data"
  check "the panel is grabbed" "" panel_grabbed events-grabbed.log
  libinput_start
  replay "$R/synth-elan-double-vs-single.events"
  sleep 0.8
  libinput_stop
  expect_eq "libinput on the clone: TOUCH_DOWN" 3 "$(libinput_count TOUCH_DOWN)"
  expect_eq "libinput on the clone: TOUCH_UP" 3 "$(libinput_count TOUCH_UP)"
  end_scenario
}

# When the unit's journal first has a line matching PATTERN after EPOCH (UNIX seconds).
journal_time() { # EPOCH PATTERN
  journalctl -q -u gestured --no-pager -o short-unix --since "@${1%.*}" |
    awk -v t="$1" -v p="$2" '$1 + 0 >= t + 0 && $0 ~ p { print $1; exit }'
}

# 6. SIGSTOP with a finger down: the watchdog (WatchdogSec=5s) kills the daemon, the kernel
#    drops the clone (no touch left down) and the grab, and Restart= brings it back,
#    grabbing again. Measured from the journal's times: stop -> watchdog, stop -> panel
#    free (the process gone), stop -> grabbed again.
scenario_watchdog() {
  begin_scenario systemd-watchdog || return 0
  if [ -z "${CLONE_NODE:-}" ] || [ ! -c "$CLONE_NODE" ]; then
    record "passthrough running" fail "no clone"; end_scenario; return 1
  fi
  _restarts=$(systemctl show -P NRestarts gestured)
  _pid=$(main_pid)
  libinput_start
  replay "$R/synth-elan-drag-open.events"
  sleep 0.3
  _t0=$(now)
  kill -STOP "$_pid"
  check "the clone goes (watchdog)" "$CLONE_NODE" wait_for 12 test ! -e "$CLONE_NODE"
  check "the panel is free" "" eval '! panel_grabbed events-free.log'
  reader_start "$SCENARIO_DIR/events-tap.log"
  evemu-play "$DEV_NODE" < "$LIFT_EVENTS"
  evemu-play "$DEV_NODE" < "$TAP_EVENTS"
  reader_stop
  check "the panel's touches reach others" "" grep -q 'ABS_MT_TRACKING_ID), value 900' "$SCENARIO_DIR/events-tap.log"
  libinput_stop
  expect_eq "libinput: the finger went down once" 1 "$(libinput_count TOUCH_DOWN)"
  expect_eq "libinput: no touch left down (TOUCH_UP + TOUCH_CANCEL)" 1 \
    "$(( $(libinput_count TOUCH_UP) + $(libinput_count TOUCH_CANCEL) ))"
  check "restarted with a new process" "" wait_for 10 eval '[ "$(main_pid)" != 0 ] && [ "$(main_pid)" != "$_pid" ]'
  check "the new daemon made a clone" "" wait_for 10 eval '[ -n "$(clone_node)" ] && [ -c "$(clone_node)" ]'
  CLONE_NODE=$(clone_node)
  check "the panel is grabbed again" "" panel_grabbed events-regrabbed.log
  expect_eq "NRestarts" "$(( _restarts + 1 ))" "$(systemctl show -P NRestarts gestured)"
  journalctl -q -u gestured --no-pager -o short-unix --since "@${_t0%.*}" > "$SCENARIO_DIR/journal.txt"
  _tw=$(journal_time "$_t0" 'Watchdog timeout')
  _td=$(journal_time "$_t0" 'Main process exited')
  _tg=$(journal_time "$_t0" 'grabbed; touches for applications')
  check "systemd: watchdog timeout" "$(grep -m1 'Watchdog timeout' "$SCENARIO_DIR/journal.txt")" test -n "$_tw"
  _watchdog=$(elapsed_ms "$_t0" "${_tw:-0}") _free=$(elapsed_ms "$_t0" "${_td:-0}") _back=$(elapsed_ms "$_t0" "${_tg:-0}")
  printf 'stop_to_watchdog_ms\t%s\nstop_to_free_ms\t%s\nstop_to_grabbed_ms\t%s\n' "$_watchdog" "$_free" "$_back" \
    >> "$RESULTS/timings.tsv"
  # Margins for a loaded emulator: the kill within WatchdogSec + 2 s; the new daemon's
  # start (2-4 s under emulation, a fraction of a second on a kiosk) within 10 s more.
  check "touch lost: stop -> panel free within WatchdogSec + 2 s" "${_free} ms (watchdog at ${_watchdog} ms)" \
    in_range "$_free" 1 7000
  check "stop -> grabbed again within WatchdogSec + RestartSec + 10 s" "${_back} ms" \
    in_range "$_back" 1 17000
  end_scenario
}

# 6b. Metrics for a fleet, set up as gestured-metrics.conf says: the drop-in lets the
#     sandboxed daemon write node_exporter's textfile directory, setfacl lets its user, a
#     config drop-in sets metrics_file. Debian's node_exporter serves the file on :9100
#     (on the loopback: the VM has no other network); a scrape shows the gestured_
#     families, a double tap played on the panel, a refused reload. The file goes at stop
#     (systemd-stop).
PROM_DIR=/var/lib/prometheus/node-exporter
PROM_FILE=$PROM_DIR/gestured.prom
SCRAPE=/tmp/scrape.txt
# Under emulation a scrape of every default collector takes seconds (Debian 13's
# node_exporter 1.9 more than 10 s at a host load of 30, Debian 12's 1.5 less): the VM
# waits 30 s, where a fleet's Prometheus waits its scrape_timeout (10 s by default) on a
# kiosk's own CPU.
scrape() { curl -fsS --max-time 30 http://localhost:9100/metrics > "$SCRAPE" 2> /tmp/scrape.err; }
# One series' value in a fresh scrape (node_exporter prints NAME{LABELS} VALUE).
series() { scrape && awk -v s="$1" '$1 == s { print $2 }' "$SCRAPE"; }
series_is() { [ "$(series "$1")" = "$2" ]; } # SERIES VALUE

scenario_metrics() {
  begin_scenario systemd-metrics || return 0
  check "systemctl start prometheus-node-exporter" "" systemctl start prometheus-node-exporter
  check "it serves http://localhost:9100/metrics" "" wait_for 60 scrape
  check "... with no gestured_ family before metrics_file is set" "" eval '! grep -q "^gestured_" "$SCRAPE"'
  mkdir -p "$DROPINS"
  cp /usr/share/doc/gestured/examples/gestured-metrics.conf "$DROPINS/metrics.conf"
  setfacl -m u:gestured:rwx "$PROM_DIR"
  printf '[daemon]\nmetrics_file = "%s"\nmetrics_interval = "1s"\n' "$PROM_FILE" > /etc/gestured/gestures.d/50-metrics.toml
  check "restart with the metrics drop-ins" "" restart_unit
  # The restarted daemon grabs the panel again through a new clone (systemd-stop's).
  wait_for 10 eval '[ -n "$(clone_node)" ] && [ -c "$(clone_node)" ]'
  CLONE_NODE=$(clone_node)
  check "metrics_file written, readable by node_exporter's user" "$(ls -l "$PROM_FILE" 2>&1)" \
    wait_for 5 eval 'as_user prometheus cat "$PROM_FILE" 2>/dev/null | grep -q "^gestured_build_info"'
  METRICS_ON=1
  check "node_exporter serves the gestured_ families" "" wait_for 10 eval 'scrape && grep -q "^gestured_build_info" "$SCRAPE"'
  cp "$SCRAPE" "$SCENARIO_DIR/scrape-start.txt"
  for _f in "gestured_build_info gauge" "gestured_config_info gauge" "gestured_config_reloads_total counter" \
            "gestured_config_last_reload_success gauge" "gestured_gesture_recognitions_total counter" \
            "gestured_gesture_events_total counter" "gestured_device_grabbed gauge" \
            "gestured_device_contacts_passed_total counter"; do
    check "# TYPE $_f" "" grep -qx "# TYPE $_f" "$SCRAPE"
  done
  expect_eq "node_textfile_scrape_error" 0 "$(awk '$1 == "node_textfile_scrape_error" { print $2 }' "$SCRAPE")"
  check "the panel grabbed" "$(grep '^gestured_device_grabbed' "$SCRAPE")" grep -q "^gestured_device_grabbed{.*} 1\$" "$SCRAPE"
  check "... its node on gestured_device_info" "$(grep '^gestured_device_info' "$SCRAPE")" \
    grep -q "^gestured_device_info{.*path=\"$DEV_NODE\".*} 1\$" "$SCRAPE"
  _wake='gestured_gesture_recognitions_total{gesture="wake"}'
  _n=$(awk -v s="$_wake" '$1 == s { print $2 }' "$SCRAPE")
  check "$_wake exported" "${_n:-none}" test -n "$_n"
  replay "$R/synth-elan-wake-double-tap.events"
  check "a double tap on the panel's wake corner: $_wake $((${_n:-0} + 1))" "" \
    wait_for 10 series_is "$_wake" "$((${_n:-0} + 1))"
  _failed='gestured_config_reloads_total{result="failed"}'
  _n=$(series "$_failed")
  cp "$CONF" /tmp/metrics-good.toml
  printf '\n[gesture.broken]\ntype = "fly"\n' >> "$CONF"
  systemctl reload gestured > "$SCENARIO_DIR/reload-broken.txt" 2>&1
  expect_eq "systemctl reload of a broken file fails" 1 "$(( $? != 0 ))"
  check "the refused reload: $_failed $((${_n:-0} + 1))" "" wait_for 10 series_is "$_failed" "$((${_n:-0} + 1))"
  check "... gestured_config_last_reload_success 0" "" wait_for 10 series_is gestured_config_last_reload_success 0
  cp "$SCRAPE" "$SCENARIO_DIR/scrape-refused.txt"
  install_config /tmp/metrics-good.toml
  check "systemctl reload of the good file" "" systemctl reload gestured
  check "... gestured_config_last_reload_success 1" "" wait_for 10 series_is gestured_config_last_reload_success 1
  end_scenario
}

# 6c. kill -9 with the metrics file present: the file stays with its last numbers
#     (gestured_build_info included, so GesturedDown stays quiet) and only its age tells,
#     by GesturedMetricsStale's rule in docs/examples/gestured.rules.yml: node_exporter's
#     node_textfile_mtime_seconds older than three gestured_metrics_interval_seconds. The
#     unit's restart is held off for the scenario (a runtime drop-in), then the daemon is
#     started again for systemd-stop.
stale_age() { # seconds since node_exporter last saw the file change, from a fresh scrape
  # Prometheus stamps a scrape's samples with its start: the age is taken from there, not
  # from when a slow scrape ended.
  _now=$(date +%s.%N)
  scrape && awk -v now="$_now" '$1 ~ /^node_textfile_mtime_seconds\{file="(.*\/)?gestured\.prom"\}$/ { printf "%.1f", now - $2 }' "$SCRAPE"
}
is_stale() { # the rule's comparison on a fresh scrape: age > 3 * interval
  _age=$(stale_age) _interval=$(awk '$1 == "gestured_metrics_interval_seconds" { print $2 }' "$SCRAPE")
  [ -n "$_age" ] && [ -n "$_interval" ] && awk -v a="$_age" -v i="$_interval" 'BEGIN { exit !(a > 3 * i) }'
}
scenario_metrics_stale() {
  begin_scenario systemd-metrics-stale || return 0
  if [ -z "${METRICS_ON:-}" ]; then record "metrics on (systemd-metrics)" fail "not set up"; end_scenario; return 1; fi
  check "a live daemon's file is fresh (not stale by the rule)" "age $(stale_age) s" eval '! is_stale'
  mkdir -p /run/systemd/system/gestured.service.d
  printf '[Service]\nRestart=no\n' > /run/systemd/system/gestured.service.d/scenario-no-restart.conf
  systemctl daemon-reload
  _pid=$(main_pid)
  check "kill -9 the daemon" "pid $_pid" kill -9 "$_pid"
  check "... it is gone, not restarted" "" wait_for 10 eval '[ "$(systemctl is-active gestured)" != active ]'
  check "the metrics file stays" "" test -e "$PROM_FILE"
  check "stale by the rule within 3 intervals + 5 s" "age $(stale_age) s" wait_for 8 is_stale
  cp "$SCRAPE" "$SCENARIO_DIR/scrape-stale.txt"
  check "... while gestured_build_info is still served (GesturedDown stays quiet)" "" grep -q '^gestured_build_info{' "$SCRAPE"
  rm -f /run/systemd/system/gestured.service.d/scenario-no-restart.conf
  systemctl daemon-reload
  systemctl reset-failed gestured 2>/dev/null
  check "systemctl start again" "" systemctl start gestured
  wait_for 10 eval '[ -n "$(clone_node)" ] && [ -c "$(clone_node)" ]'
  CLONE_NODE=$(clone_node)
  check "fresh again" "age $(stale_age) s" wait_for 10 eval '! is_stale'
  end_scenario
}

# 7. systemctl stop with a finger down on the panel: the daemon lifts the touch on the
#    clone before it goes (libinput sees down, motion, up; the lift is on the clone's own
#    events, not made up by libinput when the device vanished), gives the panel back,
#    and leaves nothing of the service (the admin menu's leftover process included) and
#    no metrics file.
scenario_stop() {
  begin_scenario systemd-stop || return 0
  trigger admin_menu
  check "an action left a process in the service" "" wait_for "$ACTION_WAIT" pgrep -f 'sleep 613'
  _cg=/sys/fs/cgroup$(systemctl show -P ControlGroup gestured)
  stdbuf -oL evtest "$CLONE_NODE" > "$SCENARIO_DIR/clone-events.log" 2>&1 &
  _evtest=$!
  wait_for 5 fd_open "$_evtest" "$CLONE_NODE"
  libinput_start
  replay "$R/synth-elan-drag-open.events"
  check "a finger down and moving on the clone (libinput)" "" \
    wait_for 5 eval '[ "$(libinput_count TOUCH_MOTION)" -ge 5 ]'
  check "systemctl stop" "" systemctl stop gestured
  expect_eq "inactive" inactive "$(systemctl is-active gestured)"
  check "no process left in the service's cgroup" "$_cg" \
    eval '[ ! -e "$_cg/cgroup.procs" ] || [ -z "$(cat "$_cg/cgroup.procs")" ]'
  check "no action child left" "" eval '! pgrep -f "sleep 613"'
  check "the clone is gone" "${CLONE_NODE:-}" wait_for 5 test ! -e "${CLONE_NODE:-/nonexistent}"
  # evtest ends at the clone's removal; libinput is stopped.
  wait_for 5 exited "$_evtest" || kill "$_evtest" 2>/dev/null
  wait "$_evtest" 2>/dev/null
  libinput_stop
  expect_eq "libinput on the clone: TOUCH_DOWN" 1 "$(libinput_count TOUCH_DOWN)"
  expect_eq "libinput on the clone: TOUCH_UP" 1 "$(libinput_count TOUCH_UP)"
  expect_eq "libinput on the clone: TOUCH_CANCEL" 0 "$(libinput_count TOUCH_CANCEL)"
  check "the clone's own events end the touch (tracking id -1, BTN_TOUCH 0)" "" \
    eval 'grep -q "ABS_MT_TRACKING_ID), value -1" "$SCENARIO_DIR/clone-events.log" &&
          grep -q "BTN_TOUCH), value 0" "$SCENARIO_DIR/clone-events.log"'
  check "the panel is given back" "" eval '! panel_grabbed events-after.log'
  reader_start "$SCENARIO_DIR/events-tap.log"
  evemu-play "$DEV_NODE" < "$LIFT_EVENTS"
  evemu-play "$DEV_NODE" < "$TAP_EVENTS"
  reader_stop
  check "the panel's touches reach others" "" grep -q 'ABS_MT_TRACKING_ID), value 900' "$SCENARIO_DIR/events-tap.log"
  if [ -n "${METRICS_ON:-}" ]; then
    check "metrics_file removed at stop" "" test ! -e "$PROM_FILE"
    check "... and gone from node_exporter's scrape" "" eval 'scrape && ! grep -q "^gestured_" "$SCRAPE"'
  fi
  device_remove
  end_scenario
}

# 8. The panel reset, set up as docs/CONFIG.md says ("A panel that gets noisy: reset it"):
#    the polkit example installed (its second rule lets user gestured start
#    gestured-panel-reset@eventN.service and nothing else), the panel's [device.on.noisy]
#    action as written there. Ghosts make the panel noisy, and the action starts the unit
#    for the panel's event device. The panel is a uinput device (evemu-device), which
#    hangs off no bus: the helper has no driver to rebind, says so and fails, and the
#    panel stays as it was.
scenario_panel_reset() {
  begin_scenario systemd-panel-reset || return 0
  install -m 0644 /usr/share/doc/gestured/examples/gestured-polkit.rules /etc/polkit-1/rules.d/50-gestured.rules
  install_config /vm/configs/systemd-panel-reset.toml
  check "start with the panel-reset config" "" restart_unit
  device_create "$ELAN" || { record "device created" fail "evemu-device $ELAN"; end_scenario; return 1; }
  _unit=gestured-panel-reset@${DEV_NODE##*/}.service
  check "the panel grabbed" "" wait_for 10 eval '[ -n "$(clone_node)" ] && [ -c "$(clone_node)" ]'
  _t0=$(date +%s)
  replay "$R/synth-elan-ghosts.events"
  check "the ghosts make the panel noisy" "" wait_for 10 eval 'journal_since "$_t0" | grep -q "health ok -> noisy"'
  check "... journalctl MESSAGE_ID=<panel noisy> GESTURED_DEVICE=$DEV_NODE GESTURED_HEALTH=noisy" \
    "$(journal_entries "$_t0" "$ID_PANEL_NOISY" | grep '^GESTURED_' | tr '\n' ' ')" \
    eval 'journal_entries "$_t0" "$ID_PANEL_NOISY" GESTURED_DEVICE="$DEV_NODE" GESTURED_HEALTH=noisy | grep -qx "GESTURED_HEALTH_REASON=filtered"'
  # polkitd starts on the first request (D-Bus activation): slow under emulation.
  check "[device.on.noisy] started $_unit" "" \
    wait_for 60 eval '[ "$(systemctl show -P ActiveState "$_unit")" = failed ]'
  journal_since "$_t0" > "$SCENARIO_DIR/journal.txt"
  check "the action ended before its timeout" "$(grep -m1 'on.noisy' "$SCENARIO_DIR/journal.txt")" \
    eval '! grep -q "on.noisy\] command timed out" "$SCENARIO_DIR/journal.txt"'
  journalctl -q -u "$_unit" --no-pager -o cat > "$SCENARIO_DIR/reset.log" 2>&1
  expect_eq "the only reset unit that ran" "$_unit" \
    "$(systemctl list-units --all --plain --no-legend 'gestured-panel-reset@*' | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
  check "the helper says why it cannot reset a uinput panel" "$(head -n1 "$SCENARIO_DIR/reset.log")" \
    grep -q "gestured panel-reset: ${DEV_NODE##*/} is a virtual input device (/sys/devices/virtual/input/input[0-9]*): no driver to rebind" \
      "$SCENARIO_DIR/reset.log"
  expect_eq "... and fails" exit-code "$(systemctl show -P Result "$_unit")"
  check "the panel is as it was: still there, still grabbed" "" \
    eval 'test -c "$DEV_NODE" && panel_grabbed events-grabbed.log'
  check "the polkit rule lets user gestured start the unit, nothing else" "" \
    eval '! as_user gestured systemctl --no-block stop "$_unit" > "$SCENARIO_DIR/stop.txt" 2>&1'
  systemctl stop gestured
  device_remove
  end_scenario
}

# 8b. The same recipe on a HID panel through the kernel's own driver: the Advanced
#    Silicon panel's report descriptor through uhid, hid-multitouch bound to it. The
#    ghosts make it noisy, the action starts the unit, and the helper rebinds
#    hid-multitouch for real: the panel's event device goes (gestured drops it and its
#    clone) and comes back (gestured opens it, grabs it, makes a new clone), and a tap
#    after the reset is recognized and reaches libinput on the new clone.
scenario_panel_reset_uhid() {
  begin_scenario systemd-panel-reset-uhid || return 0
  install -m 0644 /usr/share/doc/gestured/examples/gestured-polkit.rules /etc/polkit-1/rules.d/50-gestured.rules
  sed 's/^name = "ELAN Touchscreen\*"/name = "Advanced Silicon*"/' /vm/configs/systemd-panel-reset.toml > /tmp/reset-uhid.toml
  install_config /tmp/reset-uhid.toml
  check "start with the panel-reset config on the HID panel" "" restart_unit
  uhid_create "$UHID_PANELS/advanced-silicon-2149-231c.hid" ||
    { record "HID panel created through uhid" fail "see uhid-replay.log"; end_scenario; return 1; }
  _unit=gestured-panel-reset@${DEV_NODE##*/}.service
  _input=$(readlink -f "/sys/class/input/${DEV_NODE##*/}/device")
  _hid=$(basename "$(dirname "$(dirname "$_input")")")
  check "hid-multitouch drives the panel" "$_hid" \
    test "$(basename "$(readlink -f "/sys/bus/hid/devices/$_hid/driver")")" = hid-multitouch
  check "the panel grabbed" "" wait_for 10 eval '[ -n "$(clone_node)" ] && [ -c "$(clone_node)" ]'
  _t0=$(date +%s)
  ghost_reports advanced-silicon > /tmp/ghosts.hid
  uhid_play /tmp/ghosts.hid
  check "the ghosts make the panel noisy" "" wait_for 10 eval 'journal_since "$_t0" | grep -q "health ok -> noisy"'
  # A oneshot that ran and succeeded is inactive again: its log says it ran.
  check "[device.on.noisy] started $_unit, which rebound the driver" "" \
    wait_for 60 eval 'journalctl -q -u "$_unit" --since "@$_t0" --no-pager -o cat | grep -q "rebinding" &&
                     [ "$(systemctl show -P ActiveState "$_unit")" = inactive ]'
  journalctl -q -u "$_unit" --since "@$_t0" --no-pager -o cat > "$SCENARIO_DIR/reset.log" 2>&1
  check "the helper rebinds hid-multitouch" "$(grep -m1 rebinding "$SCENARIO_DIR/reset.log")" \
    grep -q "gestured panel-reset: ${DEV_NODE##*/}: rebinding $_hid to hid-multitouch" "$SCENARIO_DIR/reset.log"
  expect_eq "... and succeeds" success "$(systemctl show -P Result "$_unit")"
  check "a new input device for the panel" "the old one: $_input" \
    wait_for 20 eval '_new=$(uhid_touchscreen) && [ "$(readlink -f "/sys/class/input/${_new##*/}/device")" != "$_input" ]'
  _old=$DEV_NODE
  DEV_NODE=$(uhid_touchscreen)
  check "gestured grabs the panel again" "$DEV_NODE" \
    wait_for 20 eval 'journal_entries "$_t0" "$ID_PANEL_GRABBED" GESTURED_DEVICE="$DEV_NODE" | grep -q "^MESSAGE=input: $DEV_NODE grabbed"'
  check "gestured saw the panel go" "$_old" \
    eval 'journal_entries "$_t0" "$ID_PANEL_REMOVED" GESTURED_DEVICE="$_old" | grep -q "^MESSAGE_ID="'
  check "... and makes a clone again" "$(clone_node)" wait_for 10 eval '[ -c "$(clone_node)" ]'
  CLONE_NODE=$(clone_node)
  journal_since "$_t0" > "$SCENARIO_DIR/journal.txt"
  gesturectl monitor --json > "$SCENARIO_DIR/monitor.jsonl" 2>&1 &
  _mon=$!
  libinput_start
  tap_reports advanced-silicon > /tmp/tap.hid
  uhid_play /tmp/tap.hid
  sleep 1
  libinput_stop
  kill "$_mon" 2>/dev/null; wait "$_mon" 2>/dev/null
  expect_eq "the tap after the reset recognized" 1 "$(monitor_count tap recognized)"
  expect_eq "libinput on the new clone: TOUCH_DOWN" 1 "$(libinput_count TOUCH_DOWN)"
  expect_eq "libinput on the new clone: TOUCH_UP" 1 "$(libinput_count TOUCH_UP)"
  systemctl stop gestured
  uhid_remove
  end_scenario
}

run_scenarios() {
  : > "$SUMMARY"
  : > "$RESULTS/timings.tsv"
  kiosk_setup
  make_tap_events
  scenario_install
  scenario_start
  scenario_socket_group
  scenario_reload
  scenario_dropin
  scenario_actions
  scenario_kiosk_user
  scenario_passthrough
  scenario_watchdog
  scenario_metrics
  scenario_metrics_stale
  scenario_stop
  scenario_panel_reset
  scenario_panel_reset_uhid
  scenario_upgrade
  journalctl -b --no-pager > "$RESULTS/journal.txt" 2>&1
  kill "$MAP_PID" 2>/dev/null
  echo VM-SUMMARY-BEGIN
  cat "$SUMMARY"
  echo VM-SUMMARY-END
}

case $(sed -n 's/.*vm\.mode=\([^ ]*\).*/\1/p' /proc/cmdline) in
  shell)
    echo "vm: shell on the serial console; scenarios: /vm/systemd/scenarios.sh; 'exit' powers off"
    setsid -w sh -c 'exec bash -l < /dev/ttyS0 > /dev/ttyS0 2>&1'
    ;;
  *) run_scenarios ;;
esac
sync
systemctl --no-block poweroff
