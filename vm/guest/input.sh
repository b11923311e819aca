# shellcheck shell=dash
# The input layer through a real kernel, with the release gesturectl: udev discovery and
# libevdev see each uinput touchscreen as its description says, and the normalizer finds
# the same contacts in what the kernel delivered (recorded live by evemu-record) as in
# the recording that was replayed.

# The value of a description's A: line for an axis code: "min max resolution".
desc_axis() { # DESC HEXCODE
  awk -v c="$2" '$1 == "A:" && $2 == c { print $3, $4, ($7 == "" ? 0 : $7); exit }' "$1"
}

axis_json() { # "min max res" -> the JSON gesturectl devices prints for it
  echo "$1" | awk '{ printf "{\"min\":%s,\"max\":%s,\"resolution\":%s}", $1, $2, $3 }'
}

contains() { # TEXT PART
  case $1 in *"$2"*) return 0 ;; *) return 1 ;; esac
}

# gesturectl devices --json lists the device with the description's axes and slots.
input_devices_case() { # CASE DESC
  begin_scenario "input-devices-$1" || return
  device_create "$2" || { record "device created" fail "evemu-device $2"; end_scenario; return; }
  gesturectl devices --json > "$SCENARIO_DIR/devices.jsonl" 2>&1
  _line=$(grep -F "\"devnode\":\"$DEV_NODE\"" "$SCENARIO_DIR/devices.jsonl")
  check "listed" "$DEV_NODE" test -n "$_line"
  _x=$(axis_json "$(desc_axis "$2" 35)")
  _y=$(axis_json "$(desc_axis "$2" 36)")
  _slots=$(( $(desc_axis "$2" 2f | cut -d' ' -f2) + 1 ))
  check "x axis" "$_x" contains "$_line" "\"x\":$_x"
  check "y axis" "$_y" contains "$_line" "\"y\":$_y"
  check "slots" "$_slots" contains "$_line" "\"slots\":$_slots"
  check "udev touchscreen" "ID_INPUT_TOUCHSCREEN=1" contains "$_line" '"ID_INPUT_TOUCHSCREEN":"1"'
  device_remove
  end_scenario
}

# Contacts and most simultaneous contacts, from gesturectl touches --summary --json.
touch_summary() { # RECORDING
  gesturectl touches --summary --json "$1" 2>/dev/null |
    sed -n 's/.*"contacts":\([0-9]*\).*"maxSimultaneous":\([0-9]*\).*/\1 contacts, \2 at once/p'
}

input_roundtrip_case() { # CASE RECORDING
  begin_scenario "input-roundtrip-$1" || return
  device_create "$2" || { record "device created" fail "evemu-device $2"; end_scenario; return; }
  evemu-record "$DEV_NODE" > "$SCENARIO_DIR/live.evemu" 2>/dev/null &
  _rec=$!
  wait_for 5 fd_open "$_rec" "$DEV_NODE"
  replay "$2"
  sleep 0.2 # evemu-record writes each event as it reads it
  stop_process "$_rec"
  device_remove
  _want=$(touch_summary "$2")
  check "recording parsed" "$_want" test -n "$_want"
  expect_eq "same contacts live" "$_want" "$(touch_summary "$SCENARIO_DIR/live.evemu")"
  end_scenario
}

input_scenarios() {
  R=/recordings
  input_devices_case elan "$R/elan-touchscreen-04f3-010c-asus-n550jk.desc"
  input_devices_case dell-canvas "$R/dell-canvas-advanced-silicon-touch-2-4-5-finger.evemu"
  input_devices_case irtouch "$R/irtouch-infrared-6615-0070.desc"
  input_devices_case atmel-03eb-8409 "$R/hid-devices-atmel-03eb-8409-diagonal-drag-2finger-10finger.evemu"
  input_roundtrip_case atmel-fast-taps "$R/atmel-maxtouch-1-finger-fast-taps.evemu"
  input_roundtrip_case atmel-4f-drag-down "$R/atmel-maxtouch-4-finger-drag-down.evemu"
  input_roundtrip_case ep0430m09-4f-drag "$R/ep0430m09-4-finger-drag-down.evemu"
  # An unknown ABS code (0x3e) and no ABS_X/Y.
  input_roundtrip_case pixel-fling "$R/google-pixel-tablet-nvt-1-finger-swipe.evemu"
}
