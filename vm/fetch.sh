#!/usr/bin/env bash
# Fetches the guest's parts from Debian with `apt-get download` into the cache and
# unpacks them with `dpkg -x` (nothing is installed on the host), then cuts the
# uncompressed kernel out of vmlinuz: qemu boots that ELF through its PVH entry point,
# three times faster than a bzImage through SeaBIOS and the decompressor.
set -euo pipefail
cd "$(dirname "$0")/.."
. vm/lib.sh

# What the guest runs; their libraries come from the dependency closure below.
ROOTS=(busybox-static evemu-tools evtest lisgd udev libstdc++6 libgcc-s1)

# The runtime dependency closure of the roots, libraries only: maintainer-script
# tooling (debconf, adduser, passwd, pam) never runs in the guest.
closure() { # [ROOT...] (ROOTS by default)
  [ $# -gt 0 ] || set -- "${ROOTS[@]}"
  apt-cache "${VM_APT[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
      --no-breaks --no-replaces --no-enhances "$@" 2>/dev/null |
    grep -v '^ ' | grep -v '^<' | sort -u |
    awk -v roots=" $* " 'index(roots, " " $0 " ") || /^lib/'
}

# The versioned image package behind the linux-image-amd64 metapackage.
kernel_package() {
  apt-cache "${VM_APT[@]}" depends linux-image-amd64 2>/dev/null |
    awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

download() {
  mkdir -p "$VM_DEBS"
  local missing=() pkg
  for pkg in "$@"; do
    compgen -G "$VM_DEBS/${pkg}_*.deb" >/dev/null || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "downloading ${missing[*]}"
  (cd "$VM_DEBS" && apt-get "${VM_APT[@]}" download -q "${missing[@]}" >/dev/null) ||
    die "apt-get download failed for: ${missing[*]} (is 'apt-get update' done?)"
}

unpack_userland() {
  local stamp=$VM_ROOT/.unpacked deb
  [ -f "$stamp" ] && [ "$stamp" -nt "$VM_DEBS" ] && return 0
  rm -rf "$VM_ROOT" && mkdir -p "$VM_ROOT"
  for deb in "$VM_DEBS"/*.deb; do
    case $(basename "$deb") in linux-image-*) continue ;; esac
    dpkg -x "$deb" "$VM_ROOT"
  done
  merge_usr "$VM_ROOT"
  touch "$stamp"
}

# vmlinuz is a bzImage whose payload is one compressed stream (xz in bookworm's kernel,
# zstd in trixie's): find its magic and decompress from there (the decompressor stops at
# the stream's end and ignores the trailer).
extract_kernel() {
  local pkg=$1 vmlinux=$VM_KERNEL_DIR/vmlinux
  [ -s "$vmlinux" ] && return 0
  rm -rf "$VM_KERNEL_DIR/tree" && mkdir -p "$VM_KERNEL_DIR/tree"
  dpkg -x "$VM_DEBS/${pkg}_"*.deb "$VM_KERNEL_DIR/tree"
  merge_usr "$VM_KERNEL_DIR/tree"
  local vmlinuz offset magic unpack
  vmlinuz=$(ls "$VM_KERNEL_DIR"/tree/boot/vmlinuz-*)
  for magic in '\xfd\x37\x7a\x58\x5a\x00:xz -dc' '\x28\xb5\x2f\xfd:zstd -dcq'; do
    offset=$(LC_ALL=C grep -obUaP "${magic%%:*}" "$vmlinuz" | head -n1 | cut -d: -f1 || true)
    [ -z "$offset" ] || { unpack=${magic#*:}; break; }
  done
  [ -n "$offset" ] || die "no xz or zstd stream in $vmlinuz"
  # shellcheck disable=SC2086 # the decompressor and its options
  tail -c +$((offset + 1)) "$vmlinuz" | $unpack 2>/dev/null > "$vmlinux.tmp" || true
  [ "$(head -c4 "$vmlinux.tmp" | od -An -c | tr -d ' ')" = '177ELF' ] ||
    die "decompressing $vmlinuz at offset $offset ($unpack) gave no ELF kernel"
  mv "$vmlinux.tmp" "$vmlinux"
  local kver
  kver=$(basename "$(ls -d "$VM_KERNEL_DIR"/tree/lib/modules/*)")
  # trixie's modules are xz-compressed: plain ones are what busybox's depmod and insmod take.
  find "$VM_KERNEL_DIR/tree/lib/modules/$kver" -name '*.ko.xz' -exec xz -d {} +
  # The .deb ships no modules.dep; the initramfs builder reads module dependencies here.
  "$VM_ROOT/bin/busybox" depmod -b "$VM_KERNEL_DIR/tree" "$kver"
  echo "$kver" > "$VM_KERNEL_DIR/version"
}

# The systemd tier (vm/build-sysimage.sh): a Debian root where systemd is PID 1 and the
# gestured .deb is installed with dpkg. Its packages are what apt itself would install on
# an empty system (apt's resolver on an empty dpkg status, recommends off), not the raw
# dependency closure, which would follow every alternative into GTK and Python.
# usr-is-merged stands for usrmerge (whose conversion never runs in an unpacked root).
# Packages depend on Essential ones without saying so: those are listed (Debian 12's set).
# The fleet's side of metrics_file: prometheus-node-exporter (its textfile collector),
# curl to scrape it, acl for the setfacl line gestured-metrics.conf gives. polkitd for the
# polkit example's rule that lets the daemon's user start the panel reset.
SYSTEMD_ROOTS=(systemd systemd-sysv dbus udev usr-is-merged procps passwd kmod mawk mount
               base-files base-passwd bash bsdutils coreutils dash debianutils diffutils
               dpkg findutils grep gzip hostname init-system-helpers libc-bin login
               ncurses-base ncurses-bin perl-base sed sysvinit-utils tar util-linux
               evemu-tools evtest socat libinput10 libevdev2 libmtdev1 libudev1 libyaml-0-2 libstdc++6
               prometheus-node-exporter curl acl polkitd)

systemd_closure() {
  local empty
  empty=$(mktemp)
  apt-get "${VM_APT[@]}" -q -o Dir::State::status="$empty" -o APT::Install-Recommends=0 -s install \
      "${SYSTEMD_ROOTS[@]}" 2>/dev/null | awk '/^Inst / { print $2 }'
  rm -f "$empty"
}

# Into a folder of their own (the initramfs tier unpacks everything in VM_DEBS); packages
# the initramfs tier has too are linked, not downloaded twice.
download_into() { # DIR PACKAGE...
  local dir=$1 pkg deb
  shift
  mkdir -p "$dir"
  for pkg in "$@"; do
    compgen -G "$dir/${pkg}_*.deb" >/dev/null && continue
    for deb in "$VM_DEBS/${pkg}"_*.deb; do
      [ -e "$deb" ] && { ln -f "$deb" "$dir/" 2>/dev/null || cp "$deb" "$dir/"; }
    done
  done
  VM_DEBS=$dir download "$@"
}

fetch_systemd_root() {
  local pkgs
  mapfile -t pkgs < <(systemd_closure)
  pkgs+=(libinput-tools)
  [ ${#pkgs[@]} -gt 50 ] || die "apt resolved only ${#pkgs[@]} packages for the systemd tier's root"
  download_into "$VM_SYS_DEBS" "${pkgs[@]}"
  # Rewritten only when it changes: vm/build-sysimage.sh unpacks the root again then.
  printf '%s\n' "${pkgs[@]}" > "$VM_SYS_DEBS/packages.new"
  if cmp -s "$VM_SYS_DEBS/packages.new" "$VM_SYS_DEBS/packages"; then rm "$VM_SYS_DEBS/packages.new"
  else mv "$VM_SYS_DEBS/packages.new" "$VM_SYS_DEBS/packages"; fi
}

# The kiosk-stacks tier (vm/build-stacks.sh): Debian 12's compositors and a Wayland
# client that prints what it receives, over the initramfs tier's tree. Their packages, the
# data they read at start (keymaps, a font for sway's titles, libinput's udev rules and
# helpers) and the library closure go into their own folder, unpacked into a tree of hard
# links to the initramfs tier's: that tier's packages and tree stay as they were.
# coreutils for stdbuf (wev's stdout to a file, line by line); xwayland because cage
# refuses to start without its binary (started lazily, never in these runs).
STACK_ROOTS=(cage xwayland sway weston wev seatd libinput-bin xkb-data fontconfig-config fonts-dejavu-core coreutils)
# Debian 13 adds labwc, Raspberry Pi OS's compositor (Debian 12 has none).
[ "$VM_DEBIAN" = bookworm ] || STACK_ROOTS+=(labwc)
# The browser tier (`vm/fetch.sh browser`) adds cog, the kiosk browser (WPE WebKit), with
# shared-mime-info: without its database a file:// page is not taken for HTML.
BROWSER_ROOTS=(cog shared-mime-info)
# Debian 13 adds Chromium, the other kiosk browser (Debian 12's tier runs cog only).
[ "$VM_DEBIAN" = bookworm ] || BROWSER_ROOTS+=(chromium chromium-common)

fetch_stacks() { # [ROOT...]: more roots than the compositors'
  local pkgs deb stamp=$VM_STACK_ROOT/.unpacked
  mapfile -t pkgs < <(closure "${STACK_ROOTS[@]}" "$@")
  download_into "$VM_STACK_DEBS" "${pkgs[@]}"
  [ -f "$stamp" ] && [ "$stamp" -nt "$VM_STACK_DEBS" ] && [ "$stamp" -nt "$VM_ROOT/.unpacked" ] && return 0
  rm -rf "$VM_STACK_ROOT" && cp -al "$VM_ROOT" "$VM_STACK_ROOT" && rm -f "$VM_STACK_ROOT/.unpacked"
  for deb in "$VM_STACK_DEBS"/*.deb; do
    # What the initramfs tier has is in the tree already; dpkg -x replaces files rather
    # than writing through the hard links.
    [ -e "$VM_DEBS/${deb##*/}" ] || dpkg -x "$deb" "$VM_STACK_ROOT"
  done
  merge_usr "$VM_STACK_ROOT"
  touch "$stamp"
}

# Trixie's package lists, apart from the machine's apt state (VM_APT, vm/lib.sh), fetched
# once; `rm -r $VM_APT_DIR` fetches them again.
apt_lists() {
  [ "$VM_DEBIAN" != bookworm ] || return 0
  compgen -G "$VM_APT_DIR/lists/*_Packages*" >/dev/null && return 0
  mkdir -p "$VM_APT_DIR/sources" "$VM_APT_DIR/lists/partial" "$VM_APT_DIR/cache/archives/partial"
  printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' "Suites: $VM_DEBIAN" 'Components: main' \
    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' > "$VM_APT_DIR/sources/$VM_DEBIAN.sources"
  log "apt-get update for $VM_DEBIAN (lists in $VM_APT_DIR)"
  apt-get "${VM_APT[@]}" update -q >/dev/null || die "apt-get update for $VM_DEBIAN failed"
}

main() {
  local kpkg
  apt_lists
  kpkg=$(kernel_package)
  [ -n "$kpkg" ] || die "apt-cache knows no linux-image-amd64 (run 'apt-get update')"
  # shellcheck disable=SC2046 # one package name per word
  download $(closure) "$kpkg"
  # libinput-debug-events, the reader of the touch-delivery scenarios: its package alone
  # (its other tools pull GTK and Python in); it needs only libinput, which lisgd brings.
  download libinput-tools
  unpack_userland
  extract_kernel "$kpkg"
  if [ "${1:-}" = stacks ] || [ "${1:-}" = browser ]; then
    if [ "$1" = browser ]; then fetch_stacks "${BROWSER_ROOTS[@]}"; else fetch_stacks; fi
    log "kiosk stacks: $(find "$VM_STACK_DEBS" -name '*.deb' | wc -l) packages, $(du -sh "$VM_STACK_DEBS" | cut -f1) of .debs"
    return 0
  fi
  fetch_systemd_root
  log "cache ready: kernel $(cat "$VM_KERNEL_DIR/version"), $(find "$VM_DEBS" -name '*.deb' | wc -l) packages, $(wc -l < "$VM_SYS_DEBS/packages") for the systemd tier"
}

main "$@"
