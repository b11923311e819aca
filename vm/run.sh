#!/usr/bin/env bash
# Boots the test VM: Debian's kernel through its PVH entry point, our initramfs, a virtio
# 9p share for the results. `run.sh test` runs the scenarios and fails when any check
# fails; `run.sh shell` gives a shell on the serial console (Ctrl-A X quits qemu);
# `run.sh systemd` and `systemd-shell` do the same for the systemd tier, `run.sh stacks`
# and `stacks-shell` for the kiosk-stacks tier (vm/build-stacks.sh), `run.sh browser` and
# `browser-shell` for its browser (VM_BROWSER=1 vm/build-stacks.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. vm/lib.sh

MODE=${1:-test}
# The shell gets a share of its own, so poking around keeps the last test's results.
RESULTS=$VM_CACHE/results
[ "$MODE" = test ] || RESULTS=$VM_CACHE/results-$MODE
SERIAL_LOG=$VM_CACHE/serial.log
# A VM that runs past this is stopped and fails its tier. 900 s: the uhid scenarios
# (vm-test) and the upgrade and HID reset (systemd tier) took each tier past 500 s on a
# loaded host, and CI may be slower than a quiet one.
VM_TIMEOUT=${VM_TIMEOUT:-900}

# KVM only where the CPU really virtualizes: a /dev/kvm without vmx/svm here is an
# instruction emulator that dies early on an unmodified kernel. Under emulation the guest's
# CPU is qemu's "max" (every feature TCG emulates) or VM_CPU's model; the browser tier
# takes Nehalem (SSE4.2, no AVX): with "max", qemu 7.2's TCG (Debian 12's) advertises
# AVX2, and Debian 13's browsers, which pick their AVX2 code at run time, failed there
# (vm/README.md, "Debian 13").
case $MODE in browser*) VM_CPU=${VM_CPU:-Nehalem} ;; esac
accel_args() {
  if grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ]; then
    echo "-accel kvm -cpu host"
  else
    echo "-accel tcg,thread=multi -cpu ${VM_CPU:-max}"
  fi
}

# no_timer_check: on a loaded host the emulated CPU can miss the kernel's IO-APIC timer
# check at boot, which then panics ("IO-APIC + timer doesn't work!"); qemu's timer works.
KERNEL_ARGS="console=ttyS0 panic=-1 quiet loglevel=3 no_timer_check"

qemu_args() {
  # shellcheck disable=SC2046 # accel_args is several words by design
  printf '%s\n' -machine pc -m 1024 -smp 2 $(accel_args) -no-reboot \
    -kernel "$VM_KERNEL_DIR/vmlinux" \
    -virtfs "local,path=$RESULTS,mount_tag=results,security_model=none,id=results" \
    -nic none
  case $MODE in
    # The systemd tier (vm/build-sysimage.sh): a Debian root on a virtio disk, changes
    # kept in a temporary snapshot so every run starts from the image as built.
    systemd*)
      printf '%s\n' -initrd "$VM_CACHE/sysinitramfs.cpio" \
        -drive "file=$VM_CACHE/sysroot.img,format=raw,if=virtio,snapshot=on" \
        -append "$KERNEL_ARGS systemd.show_status=error systemd.firstboot=0 vm.mode=${MODE#systemd-}${VM_ONLY:+ vm.only=$VM_ONLY}"
      ;;
    # The kiosk-stacks tier: its own initramfs, qemu's standard VGA (bochs-drm) for
    # weston, and room for three compositors.
    stacks*)
      printf '%s\n' -m 1536 -initrd "$VM_CACHE/stacks-initramfs.cpio" -vga std \
        -append "$KERNEL_ARGS vm.mode=${MODE#stacks-}${VM_ONLY:+ vm.only=$VM_ONLY}"
      ;;
    # The browser tier: the same guest with the browsers; its initramfs (375 MB with
    # Debian 12's cog) is held twice in RAM while the kernel unpacks it.
    browser*)
      printf '%s\n' -m $((1280 + 2 * $(stat -c %s "$VM_CACHE/browser-initramfs.cpio") / 1048576)) \
        -initrd "$VM_CACHE/browser-initramfs.cpio" -vga std \
        -append "$KERNEL_ARGS vm.mode=${MODE#browser-}${VM_ONLY:+ vm.only=$VM_ONLY}"
      ;;
    *)
      printf '%s\n' -initrd "$VM_CACHE/initramfs.cpio" \
        -append "$KERNEL_ARGS vm.mode=$MODE${VM_ONLY:+ vm.only=$VM_ONLY}"
      ;;
  esac
}

boot_interactive() {
  mapfile -t args < <(qemu_args)
  exec qemu-system-x86_64 "${args[@]}" -nographic
}

boot_batch() {
  mapfile -t args < <(qemu_args)
  local start=$SECONDS status=0
  timeout "$VM_TIMEOUT" qemu-system-x86_64 "${args[@]}" -display none -monitor none \
    -serial stdio < /dev/null | tee "$SERIAL_LOG" || status=$?
  # Emulation slows with the host's load: the report shows it beside the latencies.
  cut -d' ' -f1-3 /proc/loadavg > "$RESULTS/host-load"
  [ "$status" = 0 ] || die "qemu failed or timed out after $((SECONDS - start)) s (status $status); serial log: $SERIAL_LOG"
  log "VM ran $((SECONDS - start)) s"
}

# The summary from the 9p share, else the copy the guest printed between markers.
summary() {
  if [ -s "$RESULTS/summary.tsv" ]; then
    cat "$RESULTS/summary.tsv"
  else
    sed -n '/^VM-SUMMARY-BEGIN/,/^VM-SUMMARY-END/p' "$SERIAL_LOG" | sed '1d;$d' | tr -d '\r'
  fi
}

# summary.tsv: scenario, check, pass|fail, detail (tab-separated).
verdict() {
  local table passed failed
  table=$(summary)
  [ -n "$table" ] || die "the VM reported no results (see $SERIAL_LOG)"
  passed=$(awk -F'\t' '$3 == "pass"' <<<"$table" | wc -l)
  failed=$(awk -F'\t' '$3 != "pass"' <<<"$table" | wc -l)
  awk -F'\t' '$3 != "pass" { printf "FAIL %s: %s: %s\n", $1, $2, $4 }' <<<"$table" >&2
  log "$passed checks passed, $failed failed (details: $RESULTS)"
  [ "$failed" = 0 ]
}

main() {
  command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing (make vm-deps installs it)"
  rm -rf "$RESULTS" && mkdir -p "$RESULTS"
  case $MODE in
    shell | systemd-shell | stacks-shell | browser-shell) boot_interactive ;;
    test | systemd | stacks | browser) boot_batch; verdict ;;
    *) die "unknown mode '$MODE' (test, shell, systemd, systemd-shell, stacks, stacks-shell, browser, browser-shell)" ;;
  esac
}

main "$@"
