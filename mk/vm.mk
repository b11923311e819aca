# The real-kernel tier (vm/README.md): Debian's kernel in qemu, uinput touchscreens,
# gestured and lisgd side by side. `make vm-test` fails when any scenario check fails;
# `make vm-shell` boots the same VM with a shell on the serial console.
# VM_GESTURED=1 adds the gestured scenarios (needs the release build).

VM_GESTURED ?= 1
# gcc and libc6-dev build the static uhid panel writer (vm/uhid-replay.c).
VM_APT_PACKAGES := qemu-system-x86 cpio xz-utils zstd gcc libc6-dev
# VM_ONLY=REGEX: only the scenarios whose names match (e.g. VM_ONLY='unplug|pinch').
VM_ONLY ?=
# The Debian release the guests come from (vm/lib.sh): bookworm (Debian 12) or trixie
# (Debian 13, its own cache in .vm-cache/trixie), e.g. `make vm-test-stacks VM_DEBIAN=trixie`.
VM_DEBIAN ?= bookworm
export VM_GESTURED VM_ONLY VM_DEBIAN

.PHONY: vm-deps vm-fetch vm-initramfs vm-test vm-shell vm-report

# Installs the host's tools; the guest's packages are only downloaded (vm/fetch.sh),
# which needs apt's package lists even where the tools are already installed.
vm-deps:
	@missing=""; for p in $(VM_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ] || ! apt-cache show linux-image-amd64 >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -q; \
	fi; \
	if [ -n "$$missing" ]; then \
	  echo "vm-deps: installing$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

vm-fetch: vm-deps
	vm/fetch.sh

ifeq ($(VM_GESTURED),1)
vm-initramfs: release
endif
vm-initramfs: vm-fetch
	vm/build-initramfs.sh

vm-test: vm-initramfs
	vm/run.sh test

vm-shell: vm-initramfs
	vm/run.sh shell

# The lisgd side-by-side table of the last vm-test, printed and written into docs/BENCHMARKS.md.
vm-report:
	vm/report.sh --update docs/BENCHMARKS.md

# The same scenarios with gestured and gesturectl built with AddressSanitizer
# (vm/guest/asan.sh; the result in docs/FUZZING.md, "The daemon under AddressSanitizer on
# a real kernel"): a release build with the Swift runtime shared (the static-stdlib link
# hides the sanitizer's malloc from the C libraries), in its own scratch path. Fails on
# any failed check, any ASan report or any leak at exit; the reports are printed
# symbolized. About 9 minutes of VM here, so not part of `make test`.
VM_ASAN_SCRATCH := .build-vm-asan
VM_ASAN_TIMEOUT ?= 1800

.PHONY: vm-asan-build vm-test-asan

vm-asan-build: apt-deps
	$(SWIFT) build -c release --sanitize=address --scratch-path $(VM_ASAN_SCRATCH) --product gestured
	$(SWIFT) build -c release --sanitize=address --scratch-path $(VM_ASAN_SCRATCH) --product gesturectl

vm-test-asan: vm-fetch vm-asan-build
	VM_GESTURED=1 VM_SANITIZE=address VM_BIN_DIR=$(VM_ASAN_SCRATCH)/release vm/build-initramfs.sh
	@status=0; VM_TIMEOUT=$(VM_ASAN_TIMEOUT) vm/run.sh test || status=$$?; \
	VM_BIN_DIR=$(VM_ASAN_SCRATCH)/release vm/asan-symbolize.sh || status=1; exit $$status

# The systemd tier (vm/README.md, "The systemd tier"): Debian's systemd as PID 1 on a
# Debian root disk, the .deb installed there with dpkg -i, the packaged unit driven through
# systemctl (start, reload, watchdog, stop). Part of `make test`.
VM_APT_PACKAGES += e2fsprogs
.PHONY: vm-sysimage vm-test-systemd vm-shell-systemd

# The package the guest installs is the one built for its release: Debian 12's from
# `make deb`, Debian 13's from the trixie root (mk/debian-swift.mk), whose units and udev
# rules are under /usr/lib and whose dependencies are trixie's.
ifeq ($(VM_DEBIAN),bookworm)
VM_SYS_DEB_TARGET := deb
VM_SYS_DEB = $(DEB_DIR)/gestured_$(VERSION)_*.deb
else
VM_SYS_DEB_TARGET := deb-trixie
VM_SYS_DEB = $(DEB_TRIXIE_DIR)/gestured_$(VERSION)_*.deb
endif

vm-sysimage: $(VM_SYS_DEB_TARGET) vm-fetch
	$(SUDO) vm/build-sysimage.sh $(VM_SYS_DEB)

vm-test-systemd: vm-sysimage
	vm/run.sh systemd

vm-shell-systemd: vm-sysimage
	vm/run.sh systemd-shell

# The kiosk-stacks tier (vm/README.md, "The kiosk-stacks tier"): Debian 12's cage, weston
# (kiosk-shell) and sway with wev as the application, gestured grabbing the panel and
# passing touches through its clone; the clone as the panel's twin (the udev rule).
# Part of `make test`: under 5 minutes of VM on a 2-core host with another VM beside it
# (13 under a load of 20, with several builds running), before the keys and idle
# scenarios added some 4 more at that load; the VM's own limit leaves room for a slow host.
VM_STACKS_TIMEOUT ?= 1800
.PHONY: vm-stacks-fetch vm-stacks-initramfs vm-test-stacks vm-shell-stacks

vm-stacks-fetch: vm-deps
	vm/fetch.sh stacks

vm-stacks-initramfs: release vm-stacks-fetch
	vm/build-stacks.sh

vm-test-stacks: vm-stacks-initramfs
	VM_TIMEOUT=$${VM_TIMEOUT:-$(VM_STACKS_TIMEOUT)} vm/run.sh stacks

vm-shell-stacks: vm-stacks-initramfs
	vm/run.sh stacks-shell

# The browser tier (vm/README.md, "The browser"): cog (WPE WebKit) under cage on a page that
# counts touch and click events, gestured passing touches through its clone, then on a page
# that follows the shipped admin swipe through gestured-web. Not part of `make test`: the
# browser adds 290 MB to the initramfs, and each of its two starts 1 to 6 minutes to a
# run (the VM ran 903 s at a host load of 30, past run.sh's default 900 s: its own limit).
VM_BROWSER_TIMEOUT ?= 1800
.PHONY: vm-browser-fetch vm-browser-initramfs vm-test-browser vm-shell-browser

vm-browser-fetch: vm-deps
	vm/fetch.sh browser

vm-browser-initramfs: release vm-browser-fetch
	VM_BROWSER=1 vm/build-stacks.sh

vm-test-browser: vm-browser-initramfs
	VM_TIMEOUT=$${VM_TIMEOUT:-$(VM_BROWSER_TIMEOUT)} vm/run.sh browser

vm-shell-browser: vm-browser-initramfs
	vm/run.sh browser-shell

# The kiosk-stacks and browser tiers on Debian 13 (VM_DEBIAN=trixie, vm/README.md, "Debian
# 13"): trixie's kernel, udev, libinput and compositors (labwc added), in .vm-cache/trixie.
# Not part of `make test`: a cold cache downloads some 200 MB of packages for the stacks
# (430 MB with the browsers) and the stacks VM ran 13 minutes under a load of 20 here.
# The browser VM (cog 0.18 and Chromium 156, the kiosk quick start's checks) draws with the
# browser tier's emulated CPU (vm/run.sh); Chromium's session alone ran 18 minutes here.
VM_DEBIAN13_TIMEOUT ?= 1800
.PHONY: vm-test-stacks-debian13 vm-test-browser-debian13 vm-test-systemd-debian13 vm-shell-systemd-debian13

vm-test-stacks-debian13:
	$(MAKE) vm-test-stacks VM_DEBIAN=trixie VM_TIMEOUT=$(VM_DEBIAN13_TIMEOUT)

vm-test-browser-debian13:
	$(MAKE) vm-test-browser VM_DEBIAN=trixie VM_TIMEOUT=$(VM_DEBIAN13_TIMEOUT)

# The systemd tier on Debian 13 (vm/README.md, "Debian 13"): systemd 257 as PID 1 on a
# trixie root, Debian 13's package (deb-trixie) installed with dpkg -i, every scenario of
# Debian 12's tier.
vm-test-systemd-debian13:
	$(MAKE) vm-test-systemd VM_DEBIAN=trixie VM_TIMEOUT=$(VM_DEBIAN13_TIMEOUT)

vm-shell-systemd-debian13:
	$(MAKE) vm-shell-systemd VM_DEBIAN=trixie

# The Debian 13 tiers together (README.md, "What `make test` runs"): not part of `make
# test`, whose 45 minutes on a 2-core CI machine they would overrun (measured in
# vm/README.md, "Debian 13"); a target for a second CI job or a release check.
.PHONY: test-debian13
test-debian13: package-test-trixie vm-test-systemd-debian13 vm-test-stacks-debian13
