#!/usr/bin/env bash
# gesturectl for arm64 (Raspberry Pi OS, Debian 13 on aarch64) from Debian's own Swift, run
# in the trixie root of mk/debian-swift.sh (README.md, "Debian 13 and Debian's own Swift"):
#   1. an arm64 sysroot: Debian 13's arm64 packages (swiftlang's aarch64 modules, its
#      runtime, libc, libstdc++ and the C libraries the package links) unpacked into
#      ARM64_SYSROOT (reused while the package list stays the same);
#   2. gesturectl and gestured cross-compiled for aarch64 by the root's swiftlang 6.0.3
#      (its lld links them), and gesturectl for amd64 by the same compiler;
#   3. `gesturectl replay --json` and `replay --delivery --json` over every shared
#      recording (evemu; events with their description), the arm64 binary under
#      qemu-aarch64 (user emulation): its output must be byte for byte amd64's;
#   4. the daemon: the arm64 `gestured --replay` of each recording under qemu-aarch64, its
#      event loop, timers and control socket, with a subscriber (mk/daemon-stream.py)
#      that must get the lines amd64's `replay --json` printed, clock members aside (as
#      DaemonReplayTests check on amd64). It runs the config's actions; in the root they
#      find no kiosk to act on.
# Both builds are debug builds, as `make unit-test` builds them (the amd64 one is shared).
set -euo pipefail

SYSROOT=${ARM64_SYSROOT:-/opt/arm64-sysroot}
RECORDINGS=${RECORDINGS:-/src/shared/recordings}
CONFIG=config/gestures.toml
# Inside .build, which mk/debian-swift.sh keeps between runs (the rest of the tree is copied
# afresh), so the cross build is incremental.
SCRATCH=.build/arm64
TRIPLE=aarch64-unknown-linux-gnu
# What the cross build reads: swiftlang for the aarch64 modules (Swift, Glibc, Foundation),
# libswiftlang for the runtime, the C toolchain's arm64 libraries, the -dev packages of
# Package.swift's system libraries, and what they link in turn; linux-libc-dev is
# architecture all (its headers cover every architecture).
PACKAGES=(swiftlang libswiftlang libc6 libc6-dev libcrypt1 libcrypt-dev gcc-14-base
          libgcc-s1 libgcc-14-dev libstdc++6 libstdc++-14-dev libatomic1 libgomp1 libitm1 libasan8
          liblsan0 libtsan2 libubsan1 libhwasan0 libevdev2 libevdev-dev libudev1 libudev-dev libcap2
          libmtdev1t64 libmtdev-dev libyaml-0-2 libyaml-dev libtomlplusplus-dev)
ALL_PACKAGES=(linux-libc-dev)

log() { printf 'arm64-replay: %s\n' "$*" >&2; }
die() { printf 'arm64-replay: error: %s\n' "$*" >&2; exit 1; }

make_sysroot() {
  local want
  want=$(printf '%s\n' "${PACKAGES[@]}" "${ALL_PACKAGES[@]}")
  [ -f "$SYSROOT/.packages" ] && [ "$(cat "$SYSROOT/.packages")" = "$want" ] && return 0
  log "making the arm64 sysroot $SYSROOT (Debian 13's arm64 packages, about 500 MB to download)"
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
  apt-get -q update
  local debs
  debs=$(mktemp -d)
  (cd "$debs" && apt-get -q download "${PACKAGES[@]/%/:arm64}" "${ALL_PACKAGES[@]}")
  rm -rf "$SYSROOT" "$SYSROOT.new" && mkdir -p "$SYSROOT.new"
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$SYSROOT.new"; done
  # Merged /usr, as on Debian 13: libc's linker scripts name /lib/aarch64-linux-gnu.
  ln -s usr/lib "$SYSROOT.new/lib"
  rm -rf "$debs"
  echo "$want" > "$SYSROOT.new/.packages"
  mv "$SYSROOT.new" "$SYSROOT"
}

# The arm64 binaries look for the Swift runtime where Debian's libswiftlang puts it on an
# arm64 machine (/usr/lib/swift/linux), not in the sysroot; qemu-aarch64 -L finds it there.
cross_build() {
  PKG_CONFIG_SYSROOT_DIR=$SYSROOT \
    PKG_CONFIG_LIBDIR=$SYSROOT/usr/lib/aarch64-linux-gnu/pkgconfig:$SYSROOT/usr/share/pkgconfig \
    swift build --scratch-path "$SCRATCH" --triple "$TRIPLE" --sdk "$SYSROOT" \
    -Xswiftc -sdk -Xswiftc "$SYSROOT" -Xswiftc -resource-dir -Xswiftc "$SYSROOT/usr/lib/swift" -Xswiftc -use-ld=lld \
    -Xswiftc -no-toolchain-stdlib-rpath -Xlinker -rpath -Xlinker /usr/lib/swift/linux "$@"
}

# Every replayable recording: an evemu file, or an events file with the description of its
# device (DEVICE.desc beside DEVICE-WHAT.events).
recordings() {
  local file desc
  for file in "$RECORDINGS"/*.evemu; do printf '%s\n' "$file"; done
  for file in "$RECORDINGS"/*.events; do
    for desc in "$RECORDINGS"/*.desc; do
      case $file in "${desc%.desc}"-*) printf '%s\t--desc\t%s\n' "$file" "$desc" ;; esac
    done
  done
}

make_sysroot
[ -x /usr/bin/qemu-aarch64 ] || die "qemu-aarch64 is missing (qemu-user, in mk/debian-swift.sh's list)"
log "cross-compiling gesturectl and gestured for $TRIPLE"
cross_build --product gesturectl
cross_build --product gestured
arm64=$SCRATCH/$TRIPLE/debug
file "$arm64/gesturectl" "$arm64/gestured" | sed 's/, BuildID[^,]*//'
log "building gesturectl for amd64"
swift build --product gesturectl
amd64=$(swift build --show-bin-path)

# The arm64 daemon replaying RECORDING to a subscriber: the stream's first COUNT lines.
daemon_stream() { # COUNT RECORDING [--desc DESC]
  local count=$1 socket=$out/gestured.sock pid status=0
  shift
  qemu-aarch64 -L "$SYSROOT" "$arm64/gestured" --config "$CONFIG" --socket "$socket" --log-level error \
    --replay "$@" 2>> "$out/gestured.log" &
  pid=$!
  mk/daemon-stream.py "$socket" "$count" || status=$?
  kill "$pid" && wait "$pid" 2>/dev/null || true
  rm -f "$socket"
  return $status
}

# NAME's two outputs, $out/NAME.amd64 and .arm64: counted, and shown when they differ.
compare() { # NAME
  runs=$((runs + 1))
  if cmp -s "$out/$1.amd64" "$out/$1.arm64"; then
    printf '%-80s same (%s lines)\n' "$1" "$(wc -l < "$out/$1.amd64")"
  else
    differ=$((differ + 1))
    printf '%-80s DIFFERS\n' "$1"
    diff -u "$out/$1.amd64" "$out/$1.arm64" | head -20 || true
  fi
}

out=$(mktemp -d)
runs=0 differ=0
while IFS=$'\t' read -r recording desc_flag desc; do
  base=$(basename "$recording")
  for mode in --json "--delivery --json"; do
    name=$base${mode// /}
    # shellcheck disable=SC2086 # mode is two flags
    "$amd64/gesturectl" replay --config "$CONFIG" $mode ${desc_flag:+"$desc_flag" "$desc"} "$recording" > "$out/$name.amd64"
    # shellcheck disable=SC2086
    qemu-aarch64 -L "$SYSROOT" "$arm64/gesturectl" replay --config "$CONFIG" $mode ${desc_flag:+"$desc_flag" "$desc"} "$recording" > "$out/$name.arm64"
    compare "$name"
  done
  # The daemon's subscriber gets --json's lines, clock members aside; a failed stream is
  # a difference, its log's last lines shown.
  mk/daemon-stream.py --normalize < "$out/$base--json.amd64" > "$out/$base-daemon.amd64"
  daemon_stream "$(wc -l < "$out/$base-daemon.amd64")" "$recording" ${desc_flag:+"$desc_flag" "$desc"} > "$out/$base-daemon.arm64" ||
    { echo "(no stream)"; tail -n 5 "$out/gestured.log"; } >> "$out/$base-daemon.arm64"
  compare "$base-daemon"
done < <(recordings)
rm -rf "$out"
[ "$runs" -gt 0 ] || die "no recordings in $RECORDINGS"
log "$runs replays, $differ differ between arm64 (qemu-aarch64) and amd64"
[ "$differ" = 0 ]
