# gestured: the front door. `make run` runs the daemon on config/gestures.toml,
# `make test` runs every test tier (the README's test command; CI runs exactly it).

PREFIX    ?= /usr/local
DESTDIR   ?=
SYSCONFDIR ?= /etc
CONFIG    ?= config/gestures.toml
SWIFT     ?= swift
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need (headers, pkg-config files, tools).
APT_PACKAGES := libevdev-dev libudev-dev libmtdev-dev pkg-config evemu-tools librsvg2-bin

.PHONY: deps build test unit-test run release release-order install clean

deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif command -v apt-get >/dev/null; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	else echo "deps: please install$$missing (Debian package names)"; exit 1; fi

build: deps
	$(SWIFT) build

unit-test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# Unit and integration tiers first, then the real-kernel tier (mk/vm.mk).
test: unit-test vm-test

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

# The Swift runtime linked in (4.4 MB resident for a bare binary, 7.4 MB with the shared
# one). Two link options for the daemon's resident size (docs/BENCHMARKS.md, "Where the
# daemon misses"): --no-export-dynamic undoes the -export-dynamic of the static-stdlib
# link (nothing looks the executable's symbols up; its 5,000 exported names cost start-up
# symbol lookups and 0.3 MiB); the ordering file puts the functions that start-up runs
# next to each other instead of across 10 MB of .text (1.2 MiB; gold's option, the
# toolchain's default linker). `make release-order` regenerates the file.
RELEASE_ORDER   := $(CURDIR)/mk/release-order.txt
# libstdc++ (the runtime's and toml++'s) linked in as well: the shared library costs 1.4 MiB
# resident, initialised whole at load; its archive brings 0.4 MiB of what is used. The
# linker takes -lstdc++ from the first directory that has it, so this one holds only the
# archive (of the compiler the toolchain links with; Debian's libstdc++-12-dev).
STATIC_CXX_DIR  := $(CURDIR)/.build/static-libstdc++
RELEASE_LDFLAGS := -Xlinker --no-export-dynamic -Xlinker --section-ordering-file=$(RELEASE_ORDER) \
                   -Xlinker -L$(STATIC_CXX_DIR)

release: deps $(STATIC_CXX_DIR)/libstdc++.a
	@# SwiftPM does not know the ordering file is an input of the link
	@if [ $(RELEASE_ORDER) -nt .build/release/gestured ]; then rm -f .build/release/gestured .build/release/gesturectl; fi
	$(SWIFT) build -c release --static-swift-stdlib $(RELEASE_LDFLAGS)

$(STATIC_CXX_DIR)/libstdc++.a:
	@archive="$$(cc -print-file-name=libstdc++.a)"; \
	if [ ! -f "$$archive" ]; then echo "release: no libstdc++.a (install libstdc++-12-dev, or the one of your gcc)"; exit 1; fi; \
	mkdir -p $(@D) && ln -sf "$$archive" $@

# The functions the release daemon runs from exec to READY with the shipped config, then
# while it plays two seconds of ten fingers, from a callgrind profile (needs valgrind).
# Rerun after large changes or a new toolchain; a stale file only orders less well.
release-order: release bench-tools
	$(BENCH_SCRATCH)/release/BenchRecordings ten-fingers .build/release-order.evemu 2
	python3 Benchmarks/scripts/startup-order.py --daemon .build/release/gestured \
	  --config config/gestures.toml --replay .build/release-order.evemu --out $(RELEASE_ORDER)

# Binaries with the Swift runtime linked in, the example config (never over an existing
# one); mk/systemd.mk adds the unit and the sysusers entry, mk/completions.mk the shell
# completions.
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(SYSCONFDIR)/gestured
	install -s -m 0755 .build/release/gestured .build/release/gesturectl $(DESTDIR)$(PREFIX)/bin/
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/gestured/gestures.toml ]; then \
	  echo "install: keeping the existing $(DESTDIR)$(SYSCONFDIR)/gestured/gestures.toml (the example is config/gestures.toml)"; \
	else install -m 0644 config/gestures.toml $(DESTDIR)$(SYSCONFDIR)/gestured/gestures.toml; fi

clean:
	rm -rf .build

# Tiers and tools with their own files (vm tests, benchmarks).
-include $(wildcard mk/*.mk)
