#!/usr/bin/env bash
# The project under Debian's own Swift (`swiftlang`, Debian 13): a trixie root made with
# mmdebstrap in DEBIAN_SWIFT_DIR (git-ignored, reused while its package list stays the
# same), the working tree copied into it, a command run there as root (README.md,
# "Debian's own Swift"). The host's git `url.insteadOf` rules and the local directories
# they name are carried into the root, so SwiftPM resolves the same offline copies there.
#   mk/debian-swift.sh COMMAND...       e.g. make unit-test APT_PACKAGES=
# DEBIAN_SWIFT_TOOLCHAIN: a Swift toolchain of this machine's (swift at usr/bin/swift in
# it) bound read-only at /opt/swift in the root, for a build with the host's Swift.
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=${DEBIAN_SWIFT_DIR:-.debian-swift}
ROOT=$DIR/trixie-amd64
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# swiftlang and what the build and `make check` need; `make deb`'s tools (pandoc, lintian,
# debhelper) as well, so the package is built there as a Debian 13 user would build it;
# systemd for the package test's systemd-analyze, systemd-dev for its systemd.pc; qemu-user,
# file and python3 for mk/arm64-replay.sh.
PACKAGES=(swiftlang g++ make git pkgconf libevdev-dev libudev-dev libmtdev-dev libtomlplusplus-dev
          libyaml-dev evemu-tools time librsvg2-bin prometheus python3
          build-essential debhelper dpkg-dev lintian pandoc man-db systemd systemd-dev qemu-user file)
SRC=/src/gestured

log() { printf 'debian-swift: %s\n' "$*" >&2; }
die() { printf 'debian-swift: error: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, chroot, mounts)"
[ $# -gt 0 ] || die "usage: $0 COMMAND..."

# In a mount namespace of its own: what is mounted goes when the command ends.
in_root() { # [BIND...] -- COMMAND...: as root in ROOT, /proc, /dev, /tmp and the binds mounted
  unshare --mount --propagation private bash -euo pipefail -c '
    root=$1; shift
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs tmpfs "$root/tmp"
    while [ "$1" != -- ]; do
      mkdir -p "$root${1#*=}" && mount --bind -o ro "${1%%=*}" "$root${1#*=}"; shift
    done
    shift
    exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"
  ' sh "$ROOT" "$@"
}

# mmdebstrap the first time; later, apt-get installs what the list gained.
make_root() {
  local want
  want=$(printf '%s\n' "${PACKAGES[@]}")
  [ -f "$ROOT/.packages" ] && [ "$(cat "$ROOT/.packages")" = "$want" ] && return 0
  if [ -x "$ROOT/usr/bin/apt-get" ]; then
    log "installing the root's new packages"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    in_root -- sh -c 'apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"' sh "${PACKAGES[@]}"
  else
    log "making the trixie root $ROOT (mmdebstrap, a few minutes)"
    rm -rf "$ROOT" "$ROOT.new" && mkdir -p "$DIR"
    mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
      --include="$(IFS=,; echo "${PACKAGES[*]}")" trixie "$ROOT.new" "$MIRROR"
    mv "$ROOT.new" "$ROOT"
  fi
  echo "$want" > "$ROOT/.packages"
}

# swift-log: the project needs 1.11.0 or newer (LogEvent), and 1.11.0 is the newest that
# Swift 6.0.3 can use (1.12.0 on declare tools 6.1, later ones 6.2, and their sources use
# 6.1 and 6.2 syntax). A machine with the network gets it from GitHub. This machine's
# offline copies hold only 1.16.2, so DEBIAN_SWIFT_LOG names a git repository of
# swift-log with the 1.11.0 tag, reached through a rule more specific than the host's (git
# takes the longest matching prefix); without it SwiftPM 6.0.3 finds no version.
SWIFT_LOG_URL=https://github.com/apple/swift-log
SWIFT_LOG_IN_ROOT=/opt/debian-swift/swift-log.git
swift_log_rule() {
  [ -n "${DEBIAN_SWIFT_LOG:-}" ] || {
    log "DEBIAN_SWIFT_LOG is not set: swift-log comes from $(git ls-remote --get-url "$SWIFT_LOG_URL"), which needs tools 6.0 or older in some version"
    return 0
  }
  git -C "$DEBIAN_SWIFT_LOG" rev-parse -q --verify refs/tags/1.11.0 >/dev/null ||
    die "DEBIAN_SWIFT_LOG=$DEBIAN_SWIFT_LOG has no tag 1.11.0"
  git config --file "$ROOT/etc/gitconfig" "url.$SWIFT_LOG_IN_ROOT.insteadOf" "$SWIFT_LOG_URL"
  echo "$(cd "$DEBIAN_SWIFT_LOG" && pwd)=$SWIFT_LOG_IN_ROOT"
}

# The host's insteadOf rules, as the root's system git config; the directories they point
# to are bound into the root at the same paths (echoed, one a line).
git_rules() {
  local key url base
  : > "$ROOT/etc/gitconfig"
  git config --get-regexp '^url\..*\.insteadof$' | sort -u | while read -r key url; do
    base=${key#url.} && base=${base%.insteadof}
    git config --file "$ROOT/etc/gitconfig" --add "url.$base.insteadOf" "$url"
    [ -d "$base" ] && echo "$base=$base"
  done | sort -u
}

# The working tree as git sees it (tracked and untracked, not ignored), with its times, so
# the build in the root stays incremental; the root's .build is kept.
copy_tree() {
  mkdir -p "$ROOT$SRC"
  find "$ROOT$SRC" -mindepth 1 -maxdepth 1 ! -name .build -exec rm -rf {} +
  git ls-files -z --cached --others --exclude-standard | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null -T - -cf - | tar -xf - -C "$ROOT$SRC"
}

make_root
mapfile -t binds < <(git_rules; swift_log_rule)
copy_tree
shared=$(cd .. && pwd)/shared
[ -d "$shared/recordings" ] || die "$shared/recordings is missing (the tests read it)"
binds+=("$shared=/src/shared")
[ -z "${DEBIAN_SWIFT_TOOLCHAIN:-}" ] || binds+=("$(cd "$DEBIAN_SWIFT_TOOLCHAIN" && pwd)=/opt/swift")
in_root "${binds[@]}" -- sh -c 'cd "$0" && exec "$@"' "$SRC" "$@"
