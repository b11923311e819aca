# gestured: the front door. `make run` runs the daemon on config/gestures.toml,
# `make test` runs every test tier (the README's test command; CI runs exactly it).

PREFIX    ?= /usr/local
DESTDIR   ?=
SYSCONFDIR ?= /etc
CONFIG    ?= config/gestures.toml
SWIFT     ?= swift
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need (headers, pkg-config files, tools;
# prometheus for promtool, which checks the metrics exposition; systemd for
# systemd-socket-activate, which starts gestured-web as its socket unit would).
APT_PACKAGES := libevdev-dev libudev-dev libmtdev-dev libtomlplusplus-dev libyaml-dev pkg-config evemu-tools time librsvg2-bin prometheus systemd

.PHONY: deps apt-deps build check test unit-test run install clean help

# The Debian packages above, then the browser the web tier drives (mk/web.mk, web-deps).
# Building, running and packaging need only the first (apt-deps): `make run` and `make deb`
# install no browser; `make deps` (CI's first step) and `make test` do.
deps: apt-deps web-deps

apt-deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif command -v apt-get >/dev/null; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	else echo "deps: please install$$missing (Debian package names)"; exit 1; fi

build: apt-deps
	$(SWIFT) build

unit-test: apt-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# The fast tier for the edit loop: the Swift suites and the format check, no VM.
check: unit-test format-check

# Every tier, in this order (README.md, "What `make test` runs"; `make help` prints it):
# the Swift suites (here), the web bridge in headless Chromium on their debug build
# (mk/web.mk), the real kernel (mk/vm.mk), the format check (mk/format.mk), the fuzz targets
# briefly (mk/fuzz.mk), the Debian package (mk/package.mk), the suites under ASan
# (mk/sanitize.mk), then the systemd and kiosk-stacks VMs (mk/vm.mk).
test: unit-test web-browser-test vm-test format-check fuzz-smoke package-test asan vm-test-systemd vm-test-stacks

# The tiers of `make test` and the other commands, as README.md's "Development" has them
# (one table, printed from there).
help:
	@awk '/^## Development/ { on = 1; next } on && /^### Layout/ { exit } on' README.md

# The full daemon as an ordinary user: live touchscreens (it waits for one when there is
# none), the control socket under $XDG_RUNTIME_DIR/gestured/ (root without a session:
# /run/gestured/), until Ctrl-C.
run: build
	@# root without a login session (a container, a console): the system path, as systemd would make it
	@if [ -z "$$GESTURED_SOCKET" ] && [ -z "$$XDG_RUNTIME_DIR" ] && [ "$$(id -u)" = 0 ]; then mkdir -p -m 0755 /run/gestured; fi
	@if [ -z "$$GESTURED_SOCKET" ] && [ -z "$$XDG_RUNTIME_DIR" ] && [ ! -w /run/gestured ]; then \
	  echo "make run: XDG_RUNTIME_DIR is not set, so there is no place for the control socket."; \
	  echo "  Log in through a session that sets it, or: export XDG_RUNTIME_DIR=/run/user/$$(id -u)"; \
	  echo "  (or pick a socket: make run GESTURED_SOCKET=/tmp/gestured.sock)"; exit 1; fi
	exec "$$($(SWIFT) build --show-bin-path)/gestured" --config $(CONFIG)

# Binaries with the Swift runtime linked in, the example config (never over an existing
# one) and the administrator's empty drop-in directory; mk/systemd.mk adds the unit and the sysusers entry, mk/completions.mk the shell
# completions.
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(SYSCONFDIR)/gestured $(DESTDIR)$(SYSCONFDIR)/gestured/gestures.d
	install -s -m 0755 .build/release/gestured .build/release/gesturectl .build/release/gestured-web $(DESTDIR)$(PREFIX)/bin/
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/gestured/gestures.toml ]; then \
	  echo "install: keeping the existing $(DESTDIR)$(SYSCONFDIR)/gestured/gestures.toml (the example is config/gestures.toml)"; \
	else install -m 0644 config/gestures.toml $(DESTDIR)$(SYSCONFDIR)/gestured/gestures.toml; fi

clean:
	rm -rf .build

# Tiers and tools with their own files (vm tests, benchmarks).
-include $(wildcard mk/*.mk)
