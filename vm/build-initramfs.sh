#!/usr/bin/env bash
# Assembles the guest's initramfs from the unpacked Debian packages: busybox, the
# programs the scenarios drive, exactly the shared libraries the Debian loader says they
# need, the kernel modules the guest loads, the guest scripts and the recordings.
# With VM_GESTURED=1 it adds the release gestured and gesturectl (from VM_BIN_DIR,
# .build/release by default). VM_SANITIZE=address (make vm-test-asan) insists that both
# carry AddressSanitizer and turns on vm/guest/asan.sh; their Swift runtime, linked
# shared in that build, comes from the toolchain's directory their RUNPATH names.
# Output: $VM_CACHE/initramfs.cpio (uncompressed newc: the kernel unpacks it fastest;
# every file owned by root, whoever builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
. vm/lib.sh

VM_GESTURED=${VM_GESTURED:-0}
VM_BIN_DIR=${VM_BIN_DIR:-.build/release}
VM_SANITIZE=${VM_SANITIZE:-}
STAGE=$VM_CACHE/initramfs
KVER=$(cat "$VM_KERNEL_DIR/version")
KMODS=$VM_KERNEL_DIR/tree/lib/modules/$KVER

# The project's own programs (from VM_BIN_DIR) with VM_GESTURED=1; the browser tier adds
# the web bridge.
OWN_PROGRAMS=(gestured gesturectl)
# Programs from the Debian tree (paths inside it).
PROGRAMS=(usr/bin/evemu-device usr/bin/evemu-play usr/bin/evemu-record
          usr/bin/evemu-describe usr/bin/evtest usr/bin/lisgd bin/udevadm
          usr/libexec/libinput/libinput-debug-events)
# evdev is a module in Debian's kernel, as is everything the 9p share needs, and the HID
# core with uhid and hid-multitouch (vm/guest/uhid.sh).
MODULES=(evdev uinput virtio_pci 9pnet_virtio 9p uhid hid-multitouch)
# Enough udev rules to mark a uinput touchscreen the way libinput wants it.
UDEV_RULES=(50-udev-default.rules 60-input-id.rules 60-persistent-input.rules)

# Copies one ELF and every library it needs, each to the path it resolved to inside the
# Debian tree. A library the tree lacks is an error, never a silent host fallback.
copy_elf() {
  local src=$1 dest=$2 line lib listing
  install -D -m 0755 "$src" "$STAGE/$dest"
  # The loader stops at the first library it cannot find, listing none.
  listing=$(guest_loader --list "$src" 2>&1) ||
    die "the loader cannot list what $src needs: ${listing##*: error while loading shared libraries: } (a missing package, or a RUNPATH folder missing from VM_LIBRARY_PATH)"
  while read -r line; do
    case $line in
      *"not found"*) die "$src needs ${line%% *}, which no fetched package provides (add it to ROOTS in vm/fetch.sh)" ;;
      *"=> "*) lib=${line#*=> }; lib=${lib%% (*} ;;
      *) continue ;;
    esac
    [ -e "$STAGE/${lib#"$VM_ROOT"/}" ] || install -D -m 0755 "$(readlink -f "$lib")" "$STAGE/${lib#"$VM_ROOT"/}"
  done <<< "$listing"
}

stage_busybox() {
  install -D -m 0755 "$VM_ROOT/bin/busybox" "$STAGE/bin/busybox"
  local applet
  for applet in $("$VM_ROOT/bin/busybox" --list-full); do
    [ -e "$STAGE/$applet" ] || { mkdir -p "$STAGE/$(dirname "$applet")"; ln -s /bin/busybox "$STAGE/$applet"; }
  done
}

# The uhid panel writer (vm/uhid-replay.c), static: it needs nothing from the guest.
build_uhid_replay() { # DEST
  mkdir -p "$(dirname "$1")"
  cc -static -s -O2 -Wall -Wextra -Werror -o "$1" vm/uhid-replay.c ||
    die "building vm/uhid-replay.c failed (make vm-deps installs gcc and libc6-dev)"
}

# Debug symbols are most of a Swift binary; the guest unpacks every byte at boot.
stripped() { # BINARY -> path of a stripped copy (the binary itself without strip)
  command -v strip >/dev/null || { echo "$1"; return; }
  strip -o "$VM_CACHE/$(basename "$1").stripped" "$1" && echo "$VM_CACHE/$(basename "$1").stripped"
}

stage_programs() {
  local p
  install -D -m 0755 "$VM_ROOT/lib64/ld-linux-x86-64.so.2" "$STAGE/lib64/ld-linux-x86-64.so.2"
  for p in "${PROGRAMS[@]}"; do copy_elf "$VM_ROOT/$p" "$p"; done
  ln -sf /bin/udevadm "$STAGE/bin/systemd-udevd"
  build_uhid_replay "$STAGE/usr/bin/uhid-replay"
  if [ "$VM_GESTURED" = 1 ]; then
    for p in "${OWN_PROGRAMS[@]}"; do
      [ -x "$VM_BIN_DIR/$p" ] ||
        die "$VM_BIN_DIR/$p is missing: run 'swift build -c release --static-swift-stdlib' (or VM_GESTURED=0)"
      [ "$VM_SANITIZE" != address ] || nm -D "$VM_BIN_DIR/$p" | grep -w __asan_init >/dev/null ||
        die "$VM_BIN_DIR/$p has no AddressSanitizer runtime (make vm-test-asan builds one)"
      copy_elf "$(stripped "$VM_BIN_DIR/$p")" "usr/bin/$p"
    done
  fi
}

stage_udev() {
  local r
  mkdir -p "$STAGE/lib/udev/rules.d" "$STAGE/etc/udev" "$STAGE/run/udev"
  for r in "${UDEV_RULES[@]}"; do cp "$VM_ROOT/lib/udev/rules.d/$r" "$STAGE/lib/udev/rules.d/"; done
  # libinput reads its device quirks at start; without them it logs errors on every device.
  mkdir -p "$STAGE/usr/share" && cp -r "$VM_ROOT/usr/share/libinput" "$STAGE/usr/share/"
  printf 'root:x:0:0:root:/root:/bin/sh\n' > "$STAGE/etc/passwd"
  printf 'root:x:0:\ninput:x:101:\nkvm:x:102:\n' > "$STAGE/etc/group"
}

# The modules and what modules.dep says they need; busybox's depmod indexes the subset.
# One built into the kernel (virtio_pci in trixie's) needs nothing.
stage_modules() {
  local wanted=() m line dep
  for m in "${MODULES[@]}"; do
    grep -qE "(^|/)${m}\.ko\$" "$KMODS/modules.builtin" && continue
    line=$(grep -E "(^|/)${m}\.ko:" "$KMODS/modules.dep") || die "module $m not in $KMODS/modules.dep"
    wanted+=("${line%%:*}")
    for dep in ${line#*:}; do wanted+=("$dep"); done
  done
  for m in "${wanted[@]}"; do install -D -m 0644 "$KMODS/$m" "$STAGE/lib/modules/$KVER/$m"; done
  cp "$KMODS/modules.order" "$KMODS/modules.builtin" "$STAGE/lib/modules/$KVER/"
  "$VM_ROOT/bin/busybox" depmod -b "$STAGE" "$KVER"
}

# Guest scripts, scenario inputs (recordings, synthetic streams, configs).
stage_scenarios() {
  install -D -m 0755 vm/guest/init "$STAGE/init"
  mkdir -p "$STAGE/vm" "$STAGE/recordings"
  cp -r vm/guest/. "$STAGE/vm/"
  rm -f "$STAGE/vm/init"
  [ -d "$VM_RECORDINGS" ] || die "$VM_RECORDINGS is missing: the scenarios replay its real recordings"
  cp "$VM_RECORDINGS"/*.evemu "$VM_RECORDINGS"/*.desc "$VM_RECORDINGS"/*.hid "$STAGE/recordings/"
  vm/synth.sh "$STAGE/recordings"
  echo "$VM_GESTURED" > "$STAGE/vm/gestured-enabled"
  echo "$VM_SANITIZE" > "$STAGE/vm/sanitize"
}

main() {
  [ -s "$VM_KERNEL_DIR/vmlinux" ] || die "no kernel in $VM_KERNEL_DIR: run vm/fetch.sh first"
  rm -rf "$STAGE" && mkdir -p "$STAGE"/{dev,proc,sys,run,tmp,results,root}
  merge_usr "$STAGE"
  stage_busybox
  stage_programs
  stage_udev
  stage_modules
  stage_scenarios
  (cd "$STAGE" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) > "$VM_CACHE/initramfs.cpio"
  log "initramfs: $(du -h "$VM_CACHE/initramfs.cpio" | cut -f1) (gestured: $VM_GESTURED${VM_SANITIZE:+, sanitizer: $VM_SANITIZE})"
}

# vm/build-sysimage.sh sources this file for its helpers.
[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
