#!/usr/bin/env bash
# The kiosk-stacks tier's initramfs (vm/README.md, "The kiosk-stacks tier"): the
# initramfs tier's guest (busybox, udev, evemu, gestured and gesturectl of the release
# build) plus the release's cage, sway (swaymsg starts a client on its second output),
# weston (kiosk-shell, DRM backend on qemu's VGA) and on Debian 13 labwc, seatd, wev as
# the kiosk's application, libinput's udev rules and the package's clone rule
# (VM_DEBIAN, vm/lib.sh: Debian 12's by default).
# Built from the tree vm/fetch.sh stacks unpacks: the initramfs tier's and the compositors'.
# Output: $VM_CACHE/stacks-initramfs.cpio; with VM_BROWSER=1 (make vm-test-browser, from
# the tree vm/fetch.sh browser unpacks) $VM_CACHE/browser-initramfs.cpio, which adds cog.
set -euo pipefail
cd "$(dirname "$0")/.."
. vm/lib.sh
# The initramfs tier's helpers; its main only runs when executed.
. vm/build-initramfs.sh

VM_ROOT=$VM_STACK_ROOT
VM_GESTURED=1
STAGE=$VM_CACHE/stacks-initramfs
WESTON_LIB=usr/lib/x86_64-linux-gnu
# libweston's folder carries its major version (libweston-10, libweston-14).
WESTON_DRM=$(cd "$VM_ROOT" && echo "$WESTON_LIB"/libweston-*/drm-backend.so)
PROGRAMS+=(usr/bin/cage usr/bin/Xwayland usr/bin/sway usr/bin/swaymsg usr/bin/weston usr/bin/wev usr/sbin/seatd usr/bin/stdbuf
           usr/libexec/coreutils/libstdbuf.so usr/libexec/libinput/libinput-list-devices
           "$WESTON_DRM" "$WESTON_LIB/weston/kiosk-shell.so"
           lib/udev/libinput-device-group lib/udev/libinput-fuzz-extract lib/udev/libinput-fuzz-to-zero)
[ "$VM_DEBIAN" = bookworm ] || PROGRAMS+=(usr/bin/labwc)
# VM_BROWSER=1 (make vm-test-browser): cog and what it opens at run time, which the loader
# does not list: its Wayland platform, the WPE backend, WebKit's web and network
# processes, Mesa's EGL vendor and software rasterizer (llvmpipe over wl_shm).
VM_BROWSER=${VM_BROWSER:-0}
TIER=stacks
# WebKit's folder carries its API version (wpe-webkit-1.1 in Debian 12, 2.0 in Debian 13).
# Debian 13 adds Chromium: its binary, its helpers and the data it reads beside them.
if [ "$VM_BROWSER" = 1 ]; then
  TIER=browser
  STAGE=$VM_CACHE/browser-initramfs
  # The web bridge, for a page that follows the shipped config's admin swipe (stacks_bridge).
  OWN_PROGRAMS+=(gestured-web)
  WPE=$(cd "$VM_ROOT" && echo "$WESTON_LIB"/wpe-webkit-*)
  PROGRAMS+=(usr/bin/cog "$WESTON_LIB/cog/modules/libcogplatform-wl.so" "$WESTON_LIB/libWPEBackend-fdo-1.0.so.1"
             "$WPE/WPEWebProcess" "$WPE/WPENetworkProcess" "$WPE/injected-bundle/libWPEInjectedBundle.so"
             "$WESTON_LIB/libEGL_mesa.so.0" "$WESTON_LIB/dri/swrast_dri.so")
  # Debian 13's Mesa loads its GBM backend by path (WebKit 2.48 allocates through GBM).
  [ "$VM_DEBIAN" = bookworm ] || PROGRAMS+=("$WESTON_LIB/gbm/dri_gbm.so")
  [ "$VM_DEBIAN" = bookworm ] ||
    PROGRAMS+=(usr/lib/chromium/chromium usr/lib/chromium/chrome_crashpad_handler usr/lib/chromium/libvulkan.so.1
               usr/lib/chromium/libvk_swiftshader.so usr/lib/chromium/libEGL.so usr/lib/chromium/libGLESv2.so)
fi
# qemu's standard VGA, for weston's DRM backend.
MODULES+=(bochs)
UDEV_RULES+=(80-libinput-device-groups.rules 90-libinput-fuzz-override.rules)

# weston finds its own library through its RUNPATH, an absolute path the loader would
# look up on the host: the tree's copy of that folder joins the search path; so does
# PulseAudio's (Chromium's libpulse finds libpulsecommon there).
VM_LIBRARY_PATH=$WESTON_LIB/weston:$WESTON_LIB/pulseaudio

# What the compositors read at start: keymaps (every compositor makes one for the seat),
# fontconfig and one font (sway draws titles with pango), weston's own data. Links are
# kept: fontconfig's absolute ones name files staged beside them.
stage_data() {
  local d
  for d in usr/share/X11/xkb etc/fonts usr/share/fonts/truetype/dejavu usr/share/fontconfig \
           usr/share/weston; do
    [ -e "$VM_ROOT/$d" ] || continue
    mkdir -p "$STAGE/$(dirname "$d")" && cp -r "$VM_ROOT/$d" "$STAGE/$(dirname "$d")/"
  done
}

# The browser's data: Mesa's EGL vendor file; libwpe opens the WPE backend by its
# unversioned name, a link its package ships; the MIME database GIO reads (cog takes a
# file:// page for HTML by it), built as the package's trigger would, by the tree's own
# update-mime-database.
stage_browser() {
  cp -r "$VM_ROOT/usr/share/glvnd" "$STAGE/usr/share/"
  ln -sf libWPEBackend-fdo-1.0.so.1 "$STAGE/$WESTON_LIB/libWPEBackend-fdo-1.0.so"
  mkdir -p "$STAGE/usr/share/mime"
  cp -r "$VM_ROOT/usr/share/mime/packages" "$STAGE/usr/share/mime/"
  XDG_DATA_DIRS=$STAGE/usr/share guest_loader "$VM_ROOT/usr/bin/update-mime-database" "$STAGE/usr/share/mime"
  rm -r "$STAGE/usr/share/mime/packages"
  # The bridge's page (stacks_bridge) comes from http://localhost:8080, as a kiosk's own page
  # would: the name in /etc/hosts, as on any system. The shipped config it follows, and the
  # bridge's unit, whose command line the scenario runs.
  printf '127.0.0.1 localhost\n::1 localhost\n' > "$STAGE/etc/hosts"
  printf 'hosts: files\n' > "$STAGE/etc/nsswitch.conf"
  install -D -m 0644 config/gestures.toml "$STAGE/vm/shipped/gestures.toml"
  install -D -m 0644 systemd/gestured-web.service "$STAGE/vm/shipped/gestured-web.service"
  [ -x "$VM_ROOT/usr/lib/chromium/chromium" ] || return 0
  # Chromium's data beside its binary (resources, ICU, V8 snapshots, the en-US locale)
  # and its start script with the flags Debian adds (/etc/chromium.d).
  local f
  for f in "$VM_ROOT"/usr/lib/chromium/*.pak "$VM_ROOT"/usr/lib/chromium/*.dat "$VM_ROOT"/usr/lib/chromium/*.bin \
           "$VM_ROOT"/usr/lib/chromium/*.json "$VM_ROOT"/usr/lib/chromium/locales/en-US.pak; do
    install -D -m 0644 "$f" "$STAGE/${f#"$VM_ROOT"/}"
  done
  install -D -m 0755 "$VM_ROOT/usr/bin/chromium" "$STAGE/usr/bin/chromium"
  cp -r "$VM_ROOT/etc/chromium.d" "$VM_ROOT/etc/chromium" "$STAGE/etc/"
}

# The package's udev rule and its helper, installed where `make install` puts them.
stage_clone_rule() {
  install -D -m 0644 systemd/90-gestured-clone.rules "$STAGE/lib/udev/rules.d/90-gestured-clone.rules"
  install -D -m 0755 systemd/gestured-udev-import "$STAGE/usr/libexec/gestured/udev-import"
}

# The kiosk quick start's files (docs/KIOSK.md): the browser session runs its unit's
# command line and its gestured config, so the guide is what the tier runs.
stage_kiosk_guide() {
  mkdir -p "$STAGE/vm/kiosk" && cp docs/kiosk/* "$STAGE/vm/kiosk/"
}

main() {
  [ -s "$VM_STACK_ROOT/.unpacked" ] || [ -f "$VM_STACK_ROOT/.unpacked" ] ||
    die "no kiosk-stacks tree in $VM_STACK_ROOT: run vm/fetch.sh $TIER first"
  [ "$VM_BROWSER" != 1 ] || [ -x "$VM_ROOT/usr/bin/cog" ] || die "no cog in $VM_STACK_ROOT: run vm/fetch.sh browser first"
  [ "$VM_BROWSER" != 1 ] || [ "$VM_DEBIAN" = bookworm ] || [ -x "$VM_ROOT/usr/lib/chromium/chromium" ] ||
    die "no chromium in $VM_STACK_ROOT: run VM_DEBIAN=$VM_DEBIAN vm/fetch.sh browser first"
  rm -rf "$STAGE" && mkdir -p "$STAGE"/{dev,proc,sys,run,tmp,results,root}
  merge_usr "$STAGE"
  stage_busybox
  stage_programs
  stage_udev
  stage_modules
  stage_scenarios
  stage_data
  [ "$VM_BROWSER" != 1 ] || stage_browser
  stage_clone_rule
  stage_kiosk_guide
  echo "$TIER" > "$STAGE/vm/tier"
  (cd "$STAGE" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) > "$VM_CACHE/$TIER-initramfs.cpio"
  log "$TIER initramfs: $(du -h "$VM_CACHE/$TIER-initramfs.cpio" | cut -f1)"
}

main "$@"
