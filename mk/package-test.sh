#!/usr/bin/env bash
# The package tested as Debian checks packages and as an integrator installs one: lintian,
# dpkg -i, the files where Debian expects them, the installed unit, config and man pages,
# then dpkg --purge and nothing left behind. Installs on this machine: run it as root on a
# throwaway one (CI) or one where gestured may be installed and purged.
#   mk/package-test.sh .build/deb/gestured_VERSION_ARCH.changes
set -euo pipefail
changes=$1
dir=$(dirname "$changes")
deb=$(ls "$dir"/gestured_*.deb)
version=$(dpkg-deb -f "$deb" Version)
failures=0
fail() { echo "package-test: FAIL: $*"; failures=$((failures + 1)); }
step() { echo "package-test: $*"; }

[ "$(id -u)" = 0 ] || { echo "package-test: needs root (dpkg -i, dpkg --purge)"; exit 1; }

step "lintian (errors and warnings fail)"
lintian --fail-on error,warning --info "$changes" || fail "lintian"

step "dpkg -i $deb"
dpkg -i "$deb"

step "files where Debian expects them"
for path in /usr/bin/gestured /usr/bin/gesturectl /usr/bin/gestured-web \
            /lib/systemd/system/gestured.service /lib/systemd/system/gestured-web.socket /lib/systemd/system/gestured-web.service /usr/lib/sysusers.d/gestured.conf /lib/udev/rules.d/70-gestured-uinput.rules \
            /lib/udev/rules.d/90-gestured-clone.rules /usr/libexec/gestured/udev-import \
            /lib/systemd/system/gestured-panel-reset@.service /usr/libexec/gestured/panel-reset \
            /etc/gestured/gestures.toml \
            /usr/share/man/man8/gestured.8.gz /usr/share/man/man1/gesturectl.1.gz /usr/share/man/man5/gestures.toml.5.gz \
            /usr/share/bash-completion/completions/gesturectl /usr/share/zsh/vendor-completions/_gesturectl \
            /usr/share/fish/vendor_completions.d/gesturectl.fish \
            /usr/share/doc/gestured/copyright /usr/share/doc/gestured/changelog.gz \
            /usr/share/doc/gestured/CONFIG.md /usr/share/doc/gestured/PROTOCOL.md \
            /usr/share/doc/gestured/examples/gestured-kiosk-user.conf /usr/share/doc/gestured/examples/gestured-metrics.conf \
            /usr/share/doc/gestured/examples/gestured-polkit.rules /usr/share/doc/gestured/examples/gestured.rules.yml; do
  [ -e "$path" ] || fail "$path is missing"
done
dpkg-query -W -f='${Conffiles}\n' gestured | grep -q '^ /etc/gestured/gestures.toml ' \
  || fail "/etc/gestured/gestures.toml is not a conffile"
getent passwd gestured >/dev/null || fail "the system user gestured was not made (sysusers)"
wants=/etc/systemd/system/multi-user.target.wants/gestured.service
# The link names the unit where deb-systemd-helper found it: /lib on Debian 12, /usr/lib on
# Debian 13 (whose /lib is a link to usr/lib).
[ -L "$wants" ] && [ "$(readlink -f "$wants")" = "$(readlink -f /lib/systemd/system/gestured.service)" ] ||
  fail "gestured.service is not enabled ($wants)"

# The web bridge listens on a port only once the administrator enables it.
for unit in gestured-web.socket gestured-web.service; do
  ls /etc/systemd/system/*.wants/"$unit" >/dev/null 2>&1 && fail "$unit is enabled on install"
done

step "an edited conffile survives reinstalling the package"
echo "# edited by package-test" >> /etc/gestured/gestures.toml
dpkg -i --force-confold "$deb" >/dev/null
grep -qx "# edited by package-test" /etc/gestured/gestures.toml || fail "the edit of /etc/gestured/gestures.toml was lost"

step "both programs report the package's version ($version)"
for program in gestured gesturectl gestured-web; do
  said=$("$program" --version)
  [ "$said" = "$version" ] || fail "$program --version says '$said'"
done

step "systemd-analyze verify and security on the installed unit"
out=$(systemd-analyze verify /lib/systemd/system/gestured.service /lib/systemd/system/gestured-panel-reset@event0.service \
  /lib/systemd/system/gestured-web.socket /lib/systemd/system/gestured-web.service 2>&1) \
  || fail "verify failed"
[ -z "$out" ] || { echo "$out"; fail "systemd-analyze verify complained"; }
systemd-analyze security --offline=yes --threshold=20 /lib/systemd/system/gestured.service | tail -1 \
  || fail "exposure above 2.0"
systemd-analyze security --offline=yes --threshold=10 /lib/systemd/system/gestured-web.service | tail -1 \
  || fail "gestured-web's exposure above 1.0"

step "gesturectl check on the installed config"
gesturectl check --config /etc/gestured/gestures.toml >/dev/null || fail "the installed config does not check"

step "an upgrade whose config breaks a site's drop-in succeeds, restarts nothing and names the drop-in"
# What the postinst guards (debian/gestured.postinst): reinstalling is the upgrade path
# ("configure" with the old version), and the drop-in sets keys of a gesture the shipped
# config does not have. Without systemd here, nothing would be restarted anyway: the check
# and what the terminal says are what is tested; the systemd tier restarts for real.
site=/etc/gestured/gestures.d/50-site.toml
printf '[gesture.no_such]\ntaps = 2\n' > "$site"
upgrade_log=$(dpkg -i --force-confold "$deb" 2>&1) || fail "dpkg -i failed on a config that does not load"
echo "$upgrade_log" | grep -q "gestured was not restarted: the upgraded configuration does not load" \
  || { echo "$upgrade_log"; fail "the postinst did not say the service was left as it was"; }
echo "$upgrade_log" | grep -q "$site:1:[0-9]*: error: gesture.no_such.type: missing" \
  || { echo "$upgrade_log"; fail "the postinst did not name the drop-in's error"; }
[ "$(dpkg-query -W -f='${Status}' gestured)" = "install ok installed" ] || fail "the package is not configured"
rm -f "$site"
upgrade_log=$(dpkg -i --force-confold "$deb" 2>&1) || fail "dpkg -i failed"
echo "$upgrade_log" | grep -q "was not restarted" && { echo "$upgrade_log"; fail "a config that loads was reported broken"; }

step "man -l on every page (groff warnings fail)"
for page in $(dpkg-query -L gestured | grep '^/usr/share/man/.*\.gz$'); do
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null) || fail "man -l $page"
  [ -z "$warnings" ] || { echo "$warnings"; fail "$page has groff warnings"; }
done

step "dpkg --purge, then nothing of the package is left"
installed=$(dpkg-query -L gestured)
dpkg --purge gestured
left=""
for path in $installed; do
  if [ -e "$path" ] && { [ ! -d "$path" ] || [[ "$path" == *gestured* ]]; }; then left="$left $path"; fi
done
for path in /etc/gestured /run/gestured "$wants" /etc/systemd/system/sockets.target.wants/gestured-web.socket /var/lib/systemd/deb-systemd-helper-enabled/multi-user.target.wants/gestured.service; do
  [ -e "$path" ] && left="$left $path"
done
[ -z "$left" ] || fail "left behind after purge:$left"
# The system user stays, as Debian's packages leave theirs: files it owned elsewhere keep a name.
getent passwd gestured >/dev/null && step "the system user gestured stays (Debian practice)"

if [ "$failures" -gt 0 ]; then echo "package-test: $failures failure(s)"; exit 1; fi
step "all checks passed"
