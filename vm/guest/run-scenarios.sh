# shellcheck shell=dash disable=SC1091 # guest paths
# Runs every scenario in the guest and leaves the summary (and each scenario's artifacts)
# in the results folder; the summary is also printed between markers for the serial log.
RESULTS=${1:-/results}
. /vm/lib.sh
. /vm/lisgd.sh
. /vm/gestured.sh
. /vm/input.sh
. /vm/delivery.sh
. /vm/uhid.sh
. /vm/asan.sh

: > "$SUMMARY"
: > "$RESULTS/rss.tsv"
# What every scenario stands on; when these fail, the scenario failures below follow.
check "uinput available" "/dev/uinput" test -c /dev/uinput
check "systemd-udevd running" "" pidof systemd-udevd
asan_setup
lisgd_scenarios
if [ "$(cat /vm/gestured-enabled)" = 1 ]; then
  input_scenarios
  gestured_scenarios
  delivery_scenarios
  uhid_scenarios
else
  echo "vm: gestured scenarios off (VM_GESTURED=1 turns them on)"
fi
asan_verdict
echo VM-SUMMARY-BEGIN
cat "$SUMMARY"
echo VM-SUMMARY-END
