#!/usr/bin/env bash
# The systemd tier's disk (vm/README.md, "The systemd tier"): a Debian root of VM_DEBIAN's
# release (Debian 12's systemd 252, Debian 13's 257) in which Debian's systemd runs as
# PID 1, with the gestured .deb waiting in /root for the guest to install with `dpkg -i`,
# as an integrator does. The packages fetched by vm/fetch.sh are
# unpacked and registered in dpkg's database (their maintainer scripts never run; what
# they would set up that the guest needs is written here: users, machine-id), so dpkg in
# the guest checks gestured's dependencies and runs its maintainer scripts for real.
#   vm/build-sysimage.sh .build/deb/gestured_VERSION_ARCH.deb     (as root; make uses sudo)
# Output: $VM_CACHE/sysroot.img (ext4, booted read-write as a throw-away snapshot) and
# $VM_CACHE/sysinitramfs.cpio (busybox loads the disk's modules, then switch_root).
set -euo pipefail
cd "$(dirname "$0")/.."
. vm/lib.sh
# The initramfs tier's helpers (busybox, modules); its main only runs when executed.
. vm/build-initramfs.sh

DEB=${1:?usage: vm/build-sysimage.sh GESTURED_DEB}
SYSROOT=$VM_CACHE/sysroot      # the unpacked packages and their dpkg database, reused
ROOT=$VM_CACHE/sysimage        # this build's root: hard links into SYSROOT, plus ours
IMAGE=$VM_CACHE/sysroot.img
# The kiosk's users: kiosk (uid 1000, the kiosk-user drop-in's), member (joins the
# socket's group in the guest) and outsider (does not).
USERS=(kiosk:1000 member:1001 outsider:1002)

newest_deb() { # PACKAGE -> its .deb in VM_SYS_DEBS (the newest, when several are cached)
  local debs
  debs=$(compgen -G "$VM_SYS_DEBS/${1}_*.deb") || die "no .deb of $1 in $VM_SYS_DEBS (run vm/fetch.sh)"
  sort -V <<<"$debs" | tail -n1
}

# dpkg's record of one unpacked package: its control fields as installed, and its files.
register() { # DEB DPKGDIR
  local deb=$1 db=$2 name arch list
  name=$(dpkg-deb -f "$deb" Package)
  arch=$(dpkg-deb -f "$deb" Architecture)
  dpkg-deb -f "$deb" | awk '/^Package:/ { print; print "Status: install ok installed"; next } { print }' >> "$db/status"
  echo >> "$db/status"
  list=$name
  [ "$(dpkg-deb -f "$deb" Multi-Arch)" = same ] && list=$name:$arch
  dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||; s|^$|/.|' > "$db/info/$list.list"
}

unpack_root() {
  local stamp=$SYSROOT/.unpacked pkg deb db=$SYSROOT/var/lib/dpkg
  [ -f "$stamp" ] && [ "$stamp" -nt "$VM_SYS_DEBS/packages" ] && return 0
  log "unpacking the systemd tier's root ($(wc -l < "$VM_SYS_DEBS/packages") packages)"
  rm -rf "$SYSROOT" && mkdir -p "$SYSROOT"
  mkdir -p "$db"/{info,updates,triggers,alternatives} && : > "$db/status" && : > "$db/available"
  while read -r pkg; do
    deb=$(newest_deb "$pkg")
    dpkg-deb -x "$deb" "$SYSROOT"
    register "$deb" "$db"
  done < "$VM_SYS_DEBS/packages"
  merge_usr "$SYSROOT"
  touch "$stamp"
}

# A file of the root, replaced rather than written through (the root hard-links SYSROOT).
put() { # PATH MODE: stdin -> ROOT/PATH
  rm -f "$ROOT/$1" && mkdir -p "$(dirname "$ROOT/$1")" && cat > "$ROOT/$1" && chmod "$2" "$ROOT/$1"
}

# What base-passwd's and systemd's maintainer scripts would have written, and the users.
stage_system() {
  local u name uid
  mkdir -p "$ROOT"/{dev,proc,sys,run,root,results,home}
  # base-files' postinst: /var/run and /var/lock are /run's (GLib programs such as polkitd
  # find the system bus at /var/run/dbus/system_bus_socket).
  rm -rf "$ROOT/var/run" "$ROOT/var/lock" && ln -s /run "$ROOT/var/run" && ln -s /run/lock "$ROOT/var/lock"
  install -d -m 1777 "$ROOT/tmp"
  # prometheus: prometheus-node-exporter's postinst makes it (adduser --system --group).
  { cat "$SYSROOT/usr/share/base-passwd/passwd.master"
    echo 'prometheus:x:105:105:Prometheus daemon:/var/lib/prometheus:/usr/sbin/nologin'
    echo 'polkitd:x:106:106:polkit:/nonexistent:/usr/sbin/nologin'
    for u in "${USERS[@]}"; do name=${u%:*} uid=${u#*:}; echo "$name:x:$uid:$uid::/home/$name:/bin/sh"; done
  } | put etc/passwd 0644
  # input, kvm, render, sgx: udev's postinst makes them (the unit's SupplementaryGroups=input).
  { cat "$SYSROOT/usr/share/base-passwd/group.master"
    printf '%s\n' input:x:101: kvm:x:102: render:x:103: sgx:x:104: prometheus:x:105: polkitd:x:106:
    for u in "${USERS[@]}"; do name=${u%:*} uid=${u#*:}; echo "$name:x:$uid:"; done
  } | put etc/group 0644
  cut -d: -f1 "$ROOT/etc/passwd" | sed 's/$/:*:19000:0:99999:7:::/' | put etc/shadow 0640
  cut -d: -f1 "$ROOT/etc/group" | sed 's/$/:*::/' | put etc/gshadow 0640
  for u in "${USERS[@]}"; do
    name=${u%:*} uid=${u#*:}
    install -d -m 0750 -o "$uid" -g "$uid" "$ROOT/home/$name"
  done
  # node_exporter's postinst also gives its user its home. It would enable the unit too:
  # the metrics scenario starts it instead, keeping a Go program's start off the boot and
  # dpkg, which emulation makes slow enough already.
  chown 105:105 "$ROOT/var/lib/prometheus"
  # polkitd's postinst (its sysusers.d entry makes the user): its rules only it may read.
  chown 106:0 "$ROOT/etc/polkit-1/rules.d" "$ROOT/usr/share/polkit-1/rules.d"
  chmod 0700 "$ROOT/etc/polkit-1/rules.d" "$ROOT/usr/share/polkit-1/rules.d"
  # udev's postinst: the hardware database (systemd-hwdb --usr update). Without it Debian
  # 13's systemd-hwdb-update.service builds it at every boot of the snapshot, which under
  # emulation on a loaded host ran past its 90 s limit and failed the boot's units.
  chroot "$ROOT" systemd-hwdb --usr update
  # The alternatives mawk's postinst would register (the scenarios' awk).
  ln -sfn /etc/alternatives/awk "$ROOT/usr/bin/awk" && ln -sfn /usr/bin/mawk "$ROOT/etc/alternatives/awk"
  # Not a first boot: no systemd-firstboot questions on the console.
  echo 9e5d7c0ab1f34a6c8d2e4f60718293a4 | put etc/machine-id 0444
  echo gestured-vm | put etc/hostname 0644
  # The console is the test's log: no getty asking for a login on it.
  mkdir -p "$ROOT/etc/systemd/system"
  ln -sfn /dev/null "$ROOT/etc/systemd/system/serial-getty@ttyS0.service"
  ln -sfn /lib/systemd/system/multi-user.target "$ROOT/etc/systemd/system/default.target"
}

# The package, the scenarios (a oneshot unit after multi-user.target) and their inputs.
stage_scenarios() {
  mkdir -p "$ROOT/vm" "$ROOT/recordings"
  cp -r vm/guest/. "$ROOT/vm/"
  rm -f "$ROOT/vm/init"
  cp "$DEB" "$ROOT/root/"
  vm/upgrade-deb.sh "$DEB" "$ROOT/root/upgrade"
  build_uhid_replay "$ROOT/usr/local/bin/uhid-replay"
  cp "$VM_RECORDINGS"/*.desc "$ROOT/recordings/"
  vm/synth.sh "$ROOT/recordings"
  install -m 0644 vm/guest/systemd/vm-scenarios.service "$ROOT/etc/systemd/system/"
  mkdir -p "$ROOT/etc/systemd/system/multi-user.target.wants"
  ln -sfn /etc/systemd/system/vm-scenarios.service "$ROOT/etc/systemd/system/multi-user.target.wants/"
}

build_initramfs() {
  STAGE=$VM_CACHE/sysinitramfs
  MODULES=(virtio_pci virtio_blk crc32c_generic ext4 evdev uinput 9pnet_virtio 9p uhid hid-multitouch)
  rm -rf "$STAGE" && mkdir -p "$STAGE"/{dev,proc,sys,newroot}
  stage_busybox
  stage_modules
  install -m 0755 vm/guest/systemd/initramfs-init "$STAGE/init"
  (cd "$STAGE" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) > "$VM_CACHE/sysinitramfs.cpio"
}

main() {
  # dpkg-deb -x keeps the packages' owners and mke2fs -d copies them only for root.
  [ "$(id -u)" = 0 ] || die "needs root (the root's files keep their owners): sudo $0 $DEB"
  [ -f "$DEB" ] || die "$DEB is missing (make deb builds it)"
  [ -s "$VM_SYS_DEBS/packages" ] || die "no systemd tier packages: run vm/fetch.sh first"
  unpack_root
  rm -rf "$ROOT" && cp -al "$SYSROOT" "$ROOT" && rm -f "$ROOT/.unpacked"
  stage_system
  stage_scenarios
  build_initramfs
  local mb
  mb=$(( $(du -sm "$ROOT" | cut -f1) + 256 ))
  rm -f "$IMAGE"
  mke2fs -q -F -t ext4 -L gestured-root -d "$ROOT" "$IMAGE" "${mb}M" > /dev/null
  log "systemd tier: root image ${mb} MB, $(wc -l < "$VM_SYS_DEBS/packages") packages + $(basename "$DEB")"
}

main "$@"
