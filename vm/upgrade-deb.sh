#!/usr/bin/env bash
# The systemd tier's "next version" of the package (scenario systemd-upgrade,
# vm/guest/systemd/upgrade.sh): the package under test repacked with a higher Version and
# its shipped gestures.toml renaming the gesture wake to wake_display, so that a site
# drop-in setting keys of wake no longer loads. Made on the host: repacking 27 MB of
# binaries under emulation took minutes.
#   vm/upgrade-deb.sh DEB OUTDIR     -> OUTDIR/gestured_VERSION+upgrade1_ARCH.deb, and
#                                       OUTDIR/gestures.toml: DEB's own, as shipped
set -euo pipefail
deb=$1 out=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -R "$deb" "$work/pkg"
mkdir -p "$out"
cp "$work/pkg/etc/gestured/gestures.toml" "$out/gestures.toml"
sed -i -e 's/^\[gesture\.wake\]/[gesture.wake_display]/' -e 's/^\[gesture\.wake\.on\./[gesture.wake_display.on./' \
  "$work/pkg/etc/gestured/gestures.toml"
grep -q '^\[gesture.wake_display\]' "$work/pkg/etc/gestured/gestures.toml" || { echo "upgrade-deb: no [gesture.wake] to rename" >&2; exit 1; }
version=$(dpkg-deb -f "$deb" Version)+upgrade1
sed -i "s/^Version: .*/Version: $version/" "$work/pkg/DEBIAN/control"
dpkg-deb --root-owner-group -Zgzip -b "$work/pkg" "$out/gestured_${version}_$(dpkg-deb -f "$deb" Architecture).deb" > /dev/null
