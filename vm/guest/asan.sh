# shellcheck shell=dash disable=SC2034 # SCENARIO is lib.sh's
# gestured and gesturectl under AddressSanitizer (`make vm-test-asan`): the same
# scenarios, with the ASan builds of both in the guest. Every report, LeakSanitizer's
# exit-time leak check included, goes to a file of its own on the results share
# (asan.PROGRAM.PID); the run passes only when there is none. The host symbolizes them
# (vm/asan-symbolize.sh): the guest has no symbolizer, and the binaries are stripped.

SANITIZE=$(cat /vm/sanitize 2>/dev/null)

asan_setup() {
  [ "$SANITIZE" = address ] || return 0
  SCENARIO=asan
  rm -f "$RESULTS"/asan.*
  # halt_on_error: the first error ends the process (a daemon gone is a failed check);
  # abort_on_error=0: it exits with an error status rather than dumping core. The Swift
  # backtracer would wait on a process the sanitizer is ending.
  export ASAN_OPTIONS="log_path=$RESULTS/asan:log_exe_name=1:detect_leaks=1:halt_on_error=1:abort_on_error=0:check_initialization_order=1:strict_init_order=1"
  export LSAN_OPTIONS="suppressions=/vm/lsan.supp:print_suppressions=0"
  export SWIFT_BACKTRACE=enable=no
  # help=1 makes the runtime list its flags: proof that the binaries in the guest carry it.
  check "gestured carries ASan" "" eval 'ASAN_OPTIONS=help=1:log_path=stderr gestured --version 2>&1 | grep -q "Available flags for AddressSanitizer"'
  check "gesturectl carries ASan" "" eval 'ASAN_OPTIONS=help=1:log_path=stderr gesturectl --version 2>&1 | grep -q "Available flags for AddressSanitizer"'
  asan_leak_check_runs
}

# No report means nothing only if LeakSanitizer really runs when gestured stops on SIGTERM
# (a daemon that left through _exit or the signal's default action would skip it): seen
# once here, where its verbose line goes to stderr instead of to a report file.
asan_leak_check_runs() {
  cp /vm/configs/tap.toml /tmp/asan-once.toml && chmod 0644 /tmp/asan-once.toml
  ASAN_OPTIONS=log_path=stderr:verbosity=1 gestured --config /tmp/asan-once.toml \
    --socket /tmp/asan-once.sock > /tmp/asan-once.log 2>&1 &
  _pid=$!
  wait_for 20 eval 'gesturectl status --socket /tmp/asan-once.sock > /dev/null 2>&1'
  stop_process "$_pid"
  check "LeakSanitizer checks gestured on SIGTERM" "" grep -q 'LeakSanitizer: checking for leaks' /tmp/asan-once.log
  check "and finds nothing" "" eval '! grep -q "ERROR: " /tmp/asan-once.log'
}

# After every scenario: no report from any run of either program.
asan_verdict() {
  [ "$SANITIZE" = address ] || return 0
  SCENARIO=asan
  _reports=
  for _r in "$RESULTS"/asan.*; do [ -e "$_r" ] && _reports="$_reports ${_r##*/}"; done
  expect_eq "no ASan or LeakSanitizer report" "" "${_reports# }"
}
