#!/bin/sh
# shellcheck shell=dash disable=SC2016 # eval expands later, on purpose
# The systemd tier's upgrade scenario (sourced by scenarios.sh, whose helpers it uses).
#
# 9. An upgrade that cannot break a kiosk: the site's drop-in sets a key of the shipped
#    `wake`; the next version of the package renames it in its shipped gestures.toml, so
#    the new tree does not load (gesture.wake.type: missing). dpkg -i of that version
#    succeeds, the postinst does not restart the running daemon (same MainPID) and says why
#    on the terminal and in the journal (journalctl -u gestured), and the kiosk still
#    recognizes a double tap on the panel. The operator's fix (the drop-in follows the
#    rename) then restarts into the new config. The next version is the package under
#    test repacked: a higher Version and the gesture renamed in its conffile.
UPGRADE_DEB=/tmp/gestured_upgrade.deb
SITE_DROPIN=/etc/gestured/gestures.d/50-site.toml

# gestured_gesture_recognitions_total{gesture=NAME}, from the daemon (0 when not exported).
recognitions() { # NAME
  gesturectl metrics 2>/dev/null | awk -v s="gestured_gesture_recognitions_total{gesture=\"$1\"}" '$1 == s { n = $2 } END { print n + 0 }'
}

make_upgrade_deb() { # DEB VERSION: the next version, its shipped config renaming wake
  rm -rf /tmp/upgrade && dpkg-deb -R "$1" /tmp/upgrade &&
    sed -i -e 's/^\[gesture\.wake\]/[gesture.wake_display]/' -e 's/^\[gesture\.wake\.on\./[gesture.wake_display.on./' \
      /tmp/upgrade/etc/gestured/gestures.toml &&
    sed -i "s/^Version: .*/Version: $2/" /tmp/upgrade/DEBIAN/control &&
    dpkg-deb -b /tmp/upgrade "$UPGRADE_DEB" > /dev/null
}

scenario_upgrade() {
  begin_scenario systemd-upgrade || return 0
  _deb=$(ls /root/gestured_*.deb)
  _next=$(dpkg-deb -f "$_deb" Version)+upgrade1
  check "the next version built: $_next, wake renamed wake_display" "" make_upgrade_deb "$_deb" "$_next"
  # The conffile as shipped (other scenarios installed their own): unmodified, dpkg replaces
  # it with the next version's, as on a kiosk whose site settings are all drop-ins.
  dpkg-deb --fsys-tarfile "$_deb" | tar -xO ./etc/gestured/gestures.toml > "$CONF"
  rm -f /etc/gestured/gestures.d/*.toml "$DROPINS"/*.conf
  printf '# the site: a slower double tap to wake\n[gesture.wake]\ntap_interval = "400ms"\n' > "$SITE_DROPIN"
  device_create "$ELAN" || { record "device created" fail "evemu-device $ELAN"; end_scenario; return 1; }
  check "start with the shipped config and the site's drop-in" "" restart_unit
  _pid=$(main_pid)
  _t0=$(date +%s)
  check "dpkg -i the next version succeeds" "see dpkg-upgrade.log" \
    eval 'dpkg -i --force-confnew "$UPGRADE_DEB" > "$SCENARIO_DIR/dpkg-upgrade.log" 2>&1'
  expect_eq "... installed" "install ok installed $_next" "$(dpkg-query -W -f='${Status} ${Version}' gestured 2>&1)"
  check "... its config renamed wake" "" grep -q '^\[gesture.wake_display\]' "$CONF"
  check "the terminal: not restarted, with the drop-in's error at its line" "$(grep -m1 'error' "$SCENARIO_DIR/dpkg-upgrade.log")" \
    eval 'grep -q "gestured was not restarted: the upgraded configuration does not load" "$SCENARIO_DIR/dpkg-upgrade.log" &&
          grep -q "$SITE_DROPIN:2:[0-9]*: error: gesture.wake.type: missing" "$SCENARIO_DIR/dpkg-upgrade.log"'
  journal_since "$_t0" > "$SCENARIO_DIR/journal.txt"
  check "the journal (journalctl -u gestured) says so, with the error" "$(grep -m1 'not restarted' "$SCENARIO_DIR/journal.txt")" \
    eval 'grep -q "gestured was not restarted" "$SCENARIO_DIR/journal.txt" && grep -q "$SITE_DROPIN:2:" "$SCENARIO_DIR/journal.txt"'
  expect_eq "the running daemon was kept (MainPID)" "$_pid" "$(main_pid)"
  check "active" "" active
  _n=$(recognitions wake)
  replay "$R/synth-elan-wake-double-tap.events"
  check "the kiosk still recognizes a double tap on the panel: wake $_n -> $((_n + 1))" "" \
    wait_for 10 eval '[ "$(recognitions wake)" = "$((_n + 1))" ]'
  printf '# the site: a slower double tap to wake\n[gesture.wake_display]\ntap_interval = "400ms"\n' > "$SITE_DROPIN"
  check "the operator's fix: gesturectl check passes" "" eval 'gesturectl check > "$SCENARIO_DIR/check.txt" 2>&1'
  check "systemctl restart takes the new config" "" restart_unit
  check "... whose wake_display runs" "" eval 'gesturectl status --json | grep -q "\"wake_display\""'
  rm -f "$SITE_DROPIN"
  systemctl stop gestured
  device_remove
  end_scenario
}
