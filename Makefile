# gestured: the front door. `make run` runs the daemon on config/gestures.toml,
# `make test` runs every test tier (the README's test command; CI runs exactly it).

PREFIX    ?= /usr/local
DESTDIR   ?=
CONFIG    ?= config/gestures.toml
SWIFT     ?= swift
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need (headers, pkg-config files, tools).
APT_PACKAGES := libevdev-dev libudev-dev libmtdev-dev pkg-config evemu-tools

.PHONY: deps build test unit-test run release install clean

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

test: unit-test

run: build
	$(SWIFT) run gestured --config $(CONFIG)

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/release/gestured .build/release/gesturectl $(DESTDIR)$(PREFIX)/bin/

clean:
	rm -rf .build

# Tiers and tools with their own files (vm tests, benchmarks).
-include $(wildcard mk/*.mk)
